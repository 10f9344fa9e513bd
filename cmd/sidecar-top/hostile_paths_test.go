package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileFileName is a file name that a terminal would obey if it were written raw: OSC 0 (sets
// the window's title), CSI 2J, a C1 CSI, a bidi override, a zero-width space, DEL, a C0 control
// and a byte that is not UTF-8. A file name holds any byte but / and NUL.
const hostileFileName = marker + "\x1b]0;title\x07\x1b[2J\u009b2J\u202egpj\u200b\x7f\x01\xff"

// hostileFiles writes the hostile recording (hostileRecording) of crashing-sidecar under a
// hostile file name, its last line cut short (a recorder killed mid-write), so that every command
// that reads it warns, naming it; it returns the file's path and a directory, also named with
// hostile bytes, for the outputs.
func hostileFiles(t *testing.T) (rec, out string) {
	t.Helper()
	b, err := os.ReadFile(hostileRecording(t, "crashing-sidecar", 1))
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, `{"time":"2026-12-02T08:40:00Z","type":"MODIFIED","object":{"kind":"Pod","apiVers`...)
	dir := t.TempDir()
	rec = filepath.Join(dir, hostileFileName+".jsonl")
	if err := os.WriteFile(rec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "out-"+hostileFileName)
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return rec, out
}

// TestEveryOutputPath: one hostile recording, under a hostile file name, through every output
// path there is without a cluster: every subcommand that reads a recording, every format, the
// files they write (each named with hostile bytes too), their warnings and their errors. Every
// byte written to standard output, to standard error and to each file is scanned: none is a
// control, escape sequence, bidi or zero-width character that the text put there. The JSON
// outputs keep the text, spelled as JSON escapes; the others show it escaped (present.Safe).
func TestEveryOutputPath(t *testing.T) {
	rec, out := hostileFiles(t)
	file := func(ext string) string { return filepath.Join(out, hostileFileName+ext) }
	otlp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer otlp.Close()
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close() // nothing listens there any more
	status := kubeconfig(t, hostileServer(t, true))
	runs := []struct {
		args []string
		ok   bool // exits 0
	}{
		{[]string{"replay", rec, "--plain"}, true},
		{[]string{"replay", rec, "--plain", "--summary", "--explain"}, true},
		{[]string{"replay", rec, "-o", "json"}, true},
		{[]string{"replay", rec, "-o", "json", "--summary", "--pretty"}, true},
		{[]string{"replay", rec, "-o", "yaml"}, true},
		{[]string{"replay", rec, "-o", "yaml", "--summary"}, true},
		{[]string{"export", rec, "--format", "markdown"}, true},
		{[]string{"export", rec, "--format", "svg"}, true},
		{[]string{"export", rec, "--format", "perfetto"}, true},
		{[]string{"export", rec, "--format", "markdown", "--output-file", file(".md")}, true},
		{[]string{"export", rec, "--format", "svg", "--output-file", file(".svg")}, true},
		{[]string{"export", rec, "--format", "perfetto", "--output-file", file(".json")}, true},
		{[]string{"export", rec, "--format", "otlp", "--otlp-endpoint", otlp.URL}, true},
		{[]string{"export", rec, "--format", "otlp", "--otlp-endpoint", refused.URL, "--otlp-timeout", "2s"}, false},
		{[]string{"export", rec, "--format", "svg", "--pod", hostileFileName}, false},
		{[]string{"check", rec, "--assert", "count(findings, warning) == 0", "--junit", file(".fail.xml")}, false},
		{[]string{"check", rec, "--assert", "pod.ready - pod.created >= 0s", "--allow-uncertain", "--junit", file(".pass.xml")}, true},
		{[]string{"check", rec, "--assert", "nosuch.start - app.start < 1s"}, false},
		{[]string{"diff", rec, rec}, true},
		{[]string{"diff", rec, rec, "-o", "json"}, true},
		{[]string{"diff", rec, rec, "--by", "gap", "-o", "json"}, true},
		{[]string{"replay", file(".missing.jsonl")}, false},
		{[]string{"record", "--kubeconfig", status, "pod/x", "--output-file", file(".rec.jsonl")}, false},
		{[]string{"--kubeconfig", status, "pod/x", "--plain", "--export", "markdown=" + file(".live.md")}, false},
	}
	for _, r := range runs {
		what := fmt.Sprintf("%q", r.args) // the test's own messages are read on a terminal too
		code, stdout, stderr := runCmd(t, r.args...)
		if (code == 0) != r.ok {
			t.Errorf("%s: exit %d: %q", what, code, stderr)
		}
		checkNoForeignControls(t, what+": standard output", stdout, false)
		checkNoForeignControls(t, what+": standard error", stderr, false)
		if r.args[0] != "record" && r.args[0] != "--kubeconfig" && !strings.Contains(stderr, marker) {
			t.Errorf("%s: standard error does not name the file: %q", what, stderr)
		}
	}
	code, stdout, stderr := runCmdIn(t, rec, "replay", "-", "-o", "json")
	if code != 0 {
		t.Errorf("replay - -o json: exit %d: %s", code, stderr)
	}
	checkNoForeignControls(t, "replay - -o json", stdout+stderr, false)

	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	written := map[string]bool{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(e.Name(), hostileFileName) // what follows is ASCII
		written[name] = true
		checkNoForeignControls(t, name, string(b), false)
		if !bytes.Contains(b, []byte(marker)) {
			t.Errorf("%s does not hold the hostile text", name)
		}
		if strings.HasSuffix(name, ".xml") {
			checkReached(t, name, string(b))
		}
	}
	for _, want := range []string{".md", ".svg", ".json", ".fail.xml", ".pass.xml"} {
		if !written[want] {
			t.Errorf("no %s written; the directory holds %v", want, written)
		}
	}
}
