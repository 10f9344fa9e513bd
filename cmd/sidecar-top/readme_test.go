package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/ui"
)

// make readme runs TestREADME and TestDocs with -update.
var update = flag.Bool("update", false, "rewrite the generated parts of README.md and docs/*.md")

// The files whose parts TestREADME writes: README's capture, and the JSON example of the
// reference's JSON output section.
const (
	readmePath = "../../README.md"
	usagePath  = "../../docs/usage.md"
)

// The demo README shows, and the size of its capture.
const (
	readmeDemo          = "termination-order"
	readmeW, readmeH    = 100, 36
	readmeJSONLineWidth = 100
)

// TestREADME: README's capture of the view and the JSON example in docs/usage.md are what the
// binary draws and prints for the embedded demo; `make readme` (go test -run TestREADME -update)
// writes them.
func TestREADME(t *testing.T) {
	fillMarked(t, readmePath, "view", "```\n"+readmeView(t)+"```\n")
	fillMarked(t, usagePath, "json", "```jsonc\n"+readmeJSON(t)+"```\n")
}

// fillMarked checks, or with -update writes, the part of the file at path between the markers
// <!-- begin NAME: make readme --> and <!-- end NAME -->.
func fillMarked(t *testing.T, path, name, part string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	begin, end := "<!-- begin "+name+": make readme -->\n", "<!-- end "+name+" -->\n"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks %q ... %q", path, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	i += len(begin)
	if !*update {
		if diff := cmp.Diff(strings.Split(doc[i:j], "\n"), strings.Split(part, "\n")); diff != "" {
			t.Errorf("%s's %s is not what sidecar-top shows; run make readme (-file +now):\n%s", path, name, diff)
		}
		return
	}
	if doc[i:j] == part {
		return
	}
	if err := os.WriteFile(path, []byte(doc[:i]+part+doc[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readmeView is the view of the demo replayed to its end, at readmeW×readmeH in the no-colour
// mode, drawn by the model `sidecar-top demo` runs, with trailing blanks cut.
func readmeView(t *testing.T) string {
	t.Helper()
	f, err := recordings.Open(readmeDemo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	styles := ui.NewStyles(ui.NewRenderer(io.Discard, ui.ColorNever, ""))
	m := viewAtEnd(t, f, readmeDemo, styles, &tea.WindowSizeMsg{Width: readmeW, Height: readmeH})
	view := m.View()
	if strings.ContainsRune(view, '\x1b') {
		t.Fatal("the no-colour view has escape sequences")
	}
	var out strings.Builder
	for _, l := range strings.Split(strings.TrimRight(view, "\n"), "\n") {
		out.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	return out.String()
}

// readmeJSON is `sidecar-top demo termination-order -o json --pretty`, each list cut to its first
// item and a comment counting the rest.
func readmeJSON(t *testing.T) string {
	t.Helper()
	code, stdout, stderr := runCmd(t, "demo", readmeDemo, "-o", "json", "--pretty")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	v.write(&out, "", 0)
	out.WriteString("\n")
	return out.String()
}

// jsonValue is a JSON value with its objects' keys in the order they were written.
type jsonValue struct {
	keys  []string     // an object's
	elems []*jsonValue // an object's values or an array's items
	array bool
	lit   string // a scalar, as JSON
}

func decodeOrdered(dec *json.Decoder) (*jsonValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		b, err := json.Marshal(tok)
		return &jsonValue{lit: string(b)}, err
	}
	v := &jsonValue{array: d == '[', keys: []string{}}
	for dec.More() {
		if !v.array {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v.keys = append(v.keys, k.(string))
		}
		e, err := decodeOrdered(dec)
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, e)
	}
	_, err = dec.Token() // the closing delimiter
	return v, err
}

func (v *jsonValue) scalar() bool { return v.keys == nil && !v.array }

// inline is v on one line, if it is a scalar or a small object of scalars.
func (v *jsonValue) inline() (string, bool) {
	if v.scalar() {
		return v.lit, true
	}
	if v.array || len(v.elems) == 0 {
		return "", false
	}
	var parts []string
	for i, e := range v.elems {
		if !e.scalar() {
			return "", false
		}
		k, _ := json.Marshal(v.keys[i])
		parts = append(parts, fmt.Sprintf("%s: %s", k, e.lit))
	}
	return "{" + strings.Join(parts, ", ") + "}", true
}

// write writes v at indent, after a line's first used characters: small objects on one line,
// every list cut to its first item.
func (v *jsonValue) write(w *strings.Builder, indent string, used int) {
	if s, ok := v.inline(); ok && used+len([]rune(s))+1 <= readmeJSONLineWidth {
		w.WriteString(s)
		return
	}
	in := indent + "  "
	if v.array {
		if len(v.elems) == 0 {
			w.WriteString("[]")
			return
		}
		w.WriteString("[\n" + in)
		v.elems[0].write(w, in, len(in))
		if n := len(v.elems) - 1; n > 0 {
			fmt.Fprintf(w, "\n%s// … %d more", in, n)
		}
		w.WriteString("\n" + indent + "]")
		return
	}
	if len(v.elems) == 0 {
		w.WriteString("{}")
		return
	}
	w.WriteString("{")
	for i, e := range v.elems {
		if i > 0 {
			w.WriteString(",")
		}
		k, _ := json.Marshal(v.keys[i])
		w.WriteString("\n" + in + string(k) + ": ")
		e.write(w, in, len(in)+len([]rune(string(k)))+2)
	}
	w.WriteString("\n" + indent + "}")
}

// TestJSONAlwaysPresent: what docs/usage.md says of the fields -o json always writes holds: of the
// document, only kind, version and pods (empty when none); namespace and target when known;
// jobs, events and notes only when there are some.
func TestJSONAlwaysPresent(t *testing.T) {
	keys := func(s timeline.Snapshot, ns, target string) []string {
		var b bytes.Buffer
		if err := writeJSON(&b, ns, target, s, false); err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for k, v := range m {
			ks = append(ks, k+"="+string(v[:1]))
		}
		sort.Strings(ks)
		return ks
	}
	if diff := cmp.Diff(keys(timeline.Snapshot{}, "", ""), []string{"kind=\"", "pods=[", "version=1"}); diff != "" {
		t.Errorf("an empty timeline's document (-got +want):\n%s", diff)
	}
	s := timeline.Snapshot{Jobs: []*timeline.Job{{Name: "j"}}, Notes: []string{"n"}}
	if diff := cmp.Diff(keys(s, "ns", "job/j"), []string{"jobs=[", "kind=\"", "namespace=\"", "notes=[", "pods=[", "target=\"", "version=1"}); diff != "" {
		t.Errorf("a job's document (-got +want):\n%s", diff)
	}
}
