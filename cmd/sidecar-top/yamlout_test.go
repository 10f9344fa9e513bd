package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
)

// yamlValue is the value of a YAML text, as sigs.k8s.io/yaml reads it back to JSON.
func yamlValue(t *testing.T, y string) any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("%v:\n%s", err, y)
	}
	var v any
	if err := json.Unmarshal(j, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestYAMLIsTheJSON: -o yaml prints the value -o json prints, wherever a document is printed:
// replay and demo, streamed and with --summary (written whole).
func TestYAMLIsTheJSON(t *testing.T) {
	for _, args := range [][]string{
		{"demo", "termination-order"},
		{"replay", recordingPath("job-native-sidecar")},
		{"replay", recordingPath("job-native-sidecar"), "--summary"},
	} {
		_, js, _ := runCmd(t, append(args, "-o", "json")...)
		code, ys, stderr := runCmd(t, append(args, "-o", "yaml")...)
		if code != 0 {
			t.Fatalf("%v -o yaml: exit %d: %s", args, code, stderr)
		}
		var want any
		if err := json.Unmarshal([]byte(js), &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(yamlValue(t, ys), want); diff != "" {
			t.Errorf("%v: -o yaml's value differs from -o json's (-yaml +json):\n%s", args, diff)
		}
		if !strings.HasPrefix(ys, "kind: SidecarTopTimeline\n") || strings.Contains(ys, "{") {
			t.Errorf("%v: want block YAML, kind first; got %.200q", args, ys)
		}
	}
}

// TestYAMLInert: strings with what a terminal could obey (ESC, a C1 control, a bidi override,
// a zero-width joiner, a tab), as values and as keys, keep their value in YAML and are written
// with escapes: nothing of them reaches the terminal as it is.
func TestYAMLInert(t *testing.T) {
	hostile := []string{"a\x1b[31mred", "next\u0085line", "evil\u202etxt.exe", "zero\u200dwidth", "tab\there", "emoji \U000e0041 tag", "plain ascii", "true", "12", "multi\nline"}
	doc := map[string]any{}
	for i, h := range hostile {
		doc[h] = []any{h, i}
	}
	j, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeYAML(&out, func(w io.Writer) error { _, err := w.Write(j); return err }); err != nil {
		t.Fatal(err)
	}
	y := out.String()
	for _, r := range y {
		if r != '\n' && unsafeInYAML(r) || jsonsafe.Unsafe(r) {
			t.Errorf("raw %U in the YAML:\n%s", r, y)
		}
	}
	var want any
	_ = json.Unmarshal(j, &want)
	if diff := cmp.Diff(yamlValue(t, y), want); diff != "" {
		t.Errorf("the value changed (-yaml +json):\n%s\n%s", diff, y)
	}
}
