package export

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// exporter is the version the goldens say exported them, so that they do not change with it.
const exporter = "sidecar-top (test)"

// recording plays an embedded real recording to its end, as the export command does.
func recording(t testing.TB, name string) Input {
	t.Helper()
	f, err := recordings.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := source.Play(t.Context(), f, name+".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Truncated {
		t.Fatalf("%s: the recording's last line is cut short", name)
	}
	in := Input{Snapshot: rec.Final, About: About{Name: name + ".jsonl", Runtimes: rec.Runtimes, ExportedBy: exporter}}
	if h := rec.Header; h != nil {
		in.About.Namespace, in.About.Target = h.Namespace, h.Target
		in.About.ServerVersion, in.About.RecordedBy, in.About.Started = h.ServerVersion, h.Tool, h.StartTime
	}
	return in
}

// goldenExt is the file extension of a format's goldens, so that each opens as what it is (the
// README shows the SVG golden as a picture).
var goldenExt = map[Format]string{Perfetto: ".json", Markdown: ".md", SVG: ".svg", OTLP: ".json"}

// golden compares got with testdata/<format>/<name>.<ext>, or rewrites it under -update.
func golden(t *testing.T, format Format, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", string(format), name+goldenExt[format])
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./export -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(got), "\n"), strings.Split(string(want), "\n")); diff != "" {
		t.Errorf("%s differs (-got +want):\n%s", path, diff)
	}
}

// TestGoldens writes every text format of every shared recording and compares it with its
// golden file; go test ./export -update rewrites them.
func TestGoldens(t *testing.T) {
	for _, name := range recordings.Names() {
		in := recording(t, name)
		for _, f := range []Format{Perfetto, Markdown, SVG} {
			t.Run(string(f)+"/"+name, func(t *testing.T) {
				var b bytes.Buffer
				if err := Write(&b, f, in); err != nil {
					t.Fatal(err)
				}
				golden(t, f, name, b.Bytes())
			})
		}
	}
}
