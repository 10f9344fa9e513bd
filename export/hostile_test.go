package export

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/internal/hostile"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// hostileText are strings that a pod's author, a container (an exec probe's output becomes an
// Event's message) or a recording can put where the exports write text: markup for Markdown,
// HTML and XML, a GitHub mention, terminal escapes, text that reads otherwise than it is,
// controls, bytes that are not UTF-8 and characters XML does not allow.
var hostileText = []string{
	"<script>alert(1)</script>",
	"]]><!-- x --><svg onload=alert(1)>",
	"a|b`c``d",
	"**bold** _em_ [link](javascript:alert(1)) ![img](http://x/y.png)",
	"@octocat #1 https://example.com",
	"\x1b]52;c;cm0gLXJmIH4vKgo=\x07\x1b[2J",
	"invoice\u202egpj.exe",
	"line one\nline two\r\tbell\a\x00",
	"bad utf8 \xff\xfe\xc0",
	"not xml \ufffe\uffff",
	"&amp; &lt; \" '",
	"```\n# heading\n</details>",
}

// hostileInput is a real recording's timeline with a hostile string in every text an export
// writes: names, statuses, reasons, messages, Events, gaps, findings, notes, the header, and a
// Job's.
func hostileInput(t *testing.T) Input {
	in := recording(t, "startup-probe")
	h := func(i int) string { return hostileText[i%len(hostileText)] }
	p := hostile.Pod(*in.Snapshot.Pods.At(0), h)
	p.Owner = &timeline.OwnerRef{Kind: "Job", Name: h(5)}
	var fs []timeline.Finding
	for i := range hostileText {
		fs = append(fs, timeline.Finding{Severity: timeline.SeverityWarning, Pod: h(i + 1), Container: h(i), Text: "text " + h(i) + " `" + h(i+2) + "`"})
	}
	in.Snapshot.Pods = timeline.SeqOf(p.WithFindings(fs))
	// A Job's too: its conditions' types and reasons are the cluster's text, and any client that
	// may write the Job's status can add a condition of its own.
	j := hostile.Conditions(*recording(t, "job-native-sidecar").Snapshot.Jobs[0], h, 5)
	j.Name, j.Namespace, j.Status = h(8), h(9), h(10)
	in.Snapshot.Jobs = []*timeline.Job{j}
	in.Snapshot.Notes = append([]string(nil), hostileText...)
	in.About = About{Name: h(0), Namespace: h(1), Target: h(2), ServerVersion: h(3), RecordedBy: h(4), ExportedBy: h(5),
		Runtimes: map[string]string{p.UID: h(6)}}
	return in
}

// TestSVGHostile: the SVG of hostile text is well-formed XML with one svg element, no element
// or attribute of the cluster's making, and no control or bidi character.
func TestSVGHostile(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSVG(&b, hostileInput(t)); err != nil {
		t.Fatal(err)
	}
	elements := checkXML(t, b.Bytes())
	allowed := map[string]bool{"svg": true, "title": true, "rect": true, "line": true, "path": true, "text": true}
	for name := range elements {
		if !allowed[name] {
			t.Errorf("element <%s> in the SVG: the cluster's text made markup", name)
		}
	}
	checkInert(t, "SVG", b.String())
}

// checkXML parses b with encoding/xml (strict) to its end and counts its elements by name.
func checkXML(t *testing.T, b []byte) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	elements, depth, roots := map[string]int{}, 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root element %v, want svg in the SVG namespace", e.Name)
				}
			}
			depth++
			elements[e.Name.Local]++
			for _, a := range e.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("event handler attribute %s", a.Name.Local)
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%d root elements, want 1", roots)
	}
	return elements
}

// checkInert fails if out holds a control character (ESC, BEL, NUL, ...) or a bidi override.
func checkInert(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\ufffe' {
			t.Errorf("%s holds the raw character %U", what, r)
			return
		}
	}
}

// TestMarkdownHostile: in the report, the cluster's text is inert. Outside code spans and the
// lanes' code block no HTML tag, link, image, emphasis or mention survives unescaped, every
// table row has its columns, and nothing holds a control or bidi character.
func TestMarkdownHostile(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, hostileInput(t)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	checkInert(t, "Markdown", out)
	inBlock := false
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			continue
		}
		text := strings.TrimPrefix(stripCode(line), "- **warning**:")
		for _, bad := range []string{"<script", "<svg", "<!--", "](", "**", "@octocat", "\x1b"} {
			if strings.Contains(text, bad) && !strings.Contains(text, `\`+bad[:1]) {
				t.Errorf("line %d: %q outside a code span: %s", i+1, bad, line)
			}
		}
		if strings.HasPrefix(line, "|") {
			if got := len(splitRow(line)); got != tableColumns(out, i) {
				t.Errorf("line %d: %d cells, want %d: %s", i+1, got, tableColumns(out, i), line)
			}
		}
		if strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "## ") && !strings.HasPrefix(line, "### ") {
			t.Errorf("line %d: a heading the cluster made: %s", i+1, line)
		}
	}
	if inBlock {
		t.Error("the lanes' code block is not closed")
	}
	var rendered string
	for _, line := range strings.Split(out, "\n") {
		rendered += stripCode(line) + "\n"
	}
	if n := strings.Count(rendered, "</details>"); n != strings.Count(rendered, "<details>") {
		t.Errorf("%d </details> for %d <details>: the cluster's text closed one", n, strings.Count(rendered, "<details>"))
	}
}

// stripCode removes the code spans of a line of Markdown (a run of n backticks to the next run of
// exactly n), leaving what GitHub renders as Markdown.
func stripCode(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == '\\' && i+1 < len(line) {
			b.WriteString(line[i : i+2])
			i += 2
			continue
		}
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		end := -1
		for j := i + n; j < len(line); {
			k := strings.Index(line[j:], fence)
			if k < 0 {
				break
			}
			k += j
			if (k+n == len(line) || line[k+n] != '`') && (k == 0 || line[k-1] != '`') {
				end = k
				break
			}
			j = k + 1
		}
		if end < 0 {
			b.WriteString(line[i:])
			break
		}
		i = end + n
	}
	return b.String()
}

// splitRow splits a table row at its unescaped pipes.
func splitRow(line string) []string {
	var cells []string
	cur := ""
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			cur += line[i : i+2]
			i++
		case line[i] == '|':
			cells = append(cells, cur)
			cur = ""
		default:
			cur += string(line[i])
		}
	}
	return cells[1:] // before the first pipe
}

// tableColumns is the column count of the table that line i of out belongs to: its header's.
func tableColumns(out string, i int) int {
	lines := strings.Split(out, "\n")
	for i > 0 && strings.HasPrefix(lines[i-1], "|") {
		i--
	}
	return len(splitRow(lines[i]))
}

// TestPerfettoHostile: the trace of hostile text is still the format, and keeps the text as it was.
func TestPerfettoHostile(t *testing.T) {
	in := hostileInput(t)
	var b bytes.Buffer
	if err := WritePerfetto(&b, in); err != nil {
		t.Fatal(err)
	}
	events := checkTrace(t, b.Bytes())
	var names []string
	for _, e := range events {
		if *e.Ph == "M" && *e.Name == "thread_name" {
			var args struct{ Name string }
			_ = json.Unmarshal(e.Args, &args)
			names = append(names, args.Name)
		}
	}
	want := fmt.Sprintf("%s (%s)", strings.ToValidUTF8(in.Snapshot.Pods.At(0).Containers[0].Name, "\ufffd"), in.Snapshot.Pods.At(0).Containers[0].Kind)
	if len(names) < 2 || names[1] != want {
		t.Errorf("thread names %q, want the first container's name as it was, %q", names, want)
	}
}
