package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
)

// -o yaml prints the same document as -o json, spelled as YAML: the JSON text is read into YAML
// nodes and written in block style, members in the JSON's order. Strings keep
// their value; one that holds a character a terminal could obey (a control, or what jsonsafe
// escapes in JSON) is written double-quoted with that character as a \u escape, so that YAML
// from a hostile cluster is as inert on a terminal as its JSON.

// yamlWriter collects the JSON text written to it and writes it as YAML to w on Close. A
// document printed as JSON pod by pod is held whole here: YAML is for reading, not for a
// Job of thousands.
type yamlWriter struct {
	w    io.Writer
	json bytes.Buffer
}

func (y *yamlWriter) Write(b []byte) (int, error) { return y.json.Write(b) }

// Close writes the YAML of each JSON value written (one, or one a line).
func (y *yamlWriter) Close() error {
	dec := json.NewDecoder(&y.json)
	dec.UseNumber()
	for first := true; ; first = false {
		doc, err := jsonNode(dec)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("-o yaml: %w", err)
		}
		b, err := nodeYAML(doc)
		if err != nil {
			return err
		}
		if !first {
			b = append([]byte("---\n"), b...)
		}
		if _, err := y.w.Write(b); err != nil {
			return err
		}
	}
}

// jsonNode reads the next JSON value of dec as a YAML node, members in their order. (YAML's
// own reader would take JSON too, but not the surrogate pairs JSON escapes characters above
// U+FFFF as.)
func jsonNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if v == '{' {
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
		}
		for dec.More() {
			if n.Kind == yaml.MappingNode {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key.(string)})
			}
			c, err := jsonNode(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}, nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(v.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}, nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
}

// writeYAML writes, as YAML, the JSON text that write writes.
func writeYAML(w io.Writer, write func(io.Writer) error) error {
	y := &yamlWriter{w: w}
	if err := write(y); err != nil {
		return err
	}
	return y.Close()
}

// nodeYAML writes a document read from JSON in block style, quoting unsafe strings.
func nodeYAML(doc *yaml.Node) ([]byte, error) {
	restyle(doc)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent() // "- " at its key's indent, as kubectl -o yaml writes lists
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("-o yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("-o yaml: %w", err)
	}
	return escapeUnsafe(b.Bytes()), nil
}

// restyle drops the JSON's flow style and quotes, but double-quotes every string that holds an
// unsafe character: escapeUnsafe then spells it as an escape, which only a double-quoted
// scalar reads back.
func restyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.IndexFunc(n.Value, unsafeInYAML) >= 0 {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		restyle(c)
	}
}

// unsafeInYAML reports whether r may not be written as it is: a control (C0, DEL, C1) or a
// character jsonsafe escapes.
func unsafeInYAML(r rune) bool {
	return r < 0x20 && r != '\n' || jsonsafe.Unsafe(r)
}

// escapeUnsafe spells each unsafe character left in b (all in double-quoted scalars: restyle)
// as a YAML escape; YAML's emitter has already escaped those it calls unprintable.
func escapeUnsafe(b []byte) []byte {
	if bytes.IndexFunc(b, func(r rune) bool { return r != '\n' && unsafeInYAML(r) }) < 0 {
		return b
	}
	var out bytes.Buffer
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r == '\n' || !unsafeInYAML(r):
			out.Write(b[:size])
		case r > 0xffff:
			fmt.Fprintf(&out, `\U%08X`, r)
		default:
			fmt.Fprintf(&out, `\u%04X`, r)
		}
		b = b[size:]
	}
	return out.Bytes()
}
