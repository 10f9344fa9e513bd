package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordCompressed: record -o NAME.gz and NAME.zst write the recording compressed, and
// replay reads each as the plain recording of the same watch: the same pods with the same
// milestones (their times are each watch's own receive times).
// Cut in two, the compressed file still replays the lines before the cut, and says so.
func TestRecordCompressed(t *testing.T) {
	cfg := kubeconfig(t, hostileAPIServer(t, recordingFile(t, "startup-probe")))
	dir := t.TempDir()
	replayed := map[string]string{}
	for _, name := range []string{"plain.jsonl", "z.jsonl.gz", "z.jsonl.zst"} {
		path := filepath.Join(dir, name)
		code, _, stderr := runCmd(t, "--kubeconfig", cfg, "record", "-n", "ns", "-l", "app=x", "--output-file", path, "--timeout", "2s")
		if code != 0 {
			t.Fatalf("record -o %s: exit %d: %s", name, code, stderr)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if compressed := !bytes.HasPrefix(b, []byte("{")); compressed != (name != "plain.jsonl") {
			t.Errorf("%s: compressed %v, starts %q", name, compressed, b[:min(len(b), 8)])
		}
		code, stdout, stderr := runCmd(t, "replay", "-o", "json", path)
		if code != 0 || !strings.Contains(stdout, `"pods"`) {
			t.Fatalf("replay -o json %s: exit %d: %s", name, code, stderr)
		}
		replayed[name] = shape(t, stdout)
	}
	if !strings.Contains(replayed["plain.jsonl"], ".scheduled") {
		t.Fatalf("the plain recording's replay has no scheduled milestone: %s", replayed["plain.jsonl"])
	}
	for _, name := range []string{"z.jsonl.gz", "z.jsonl.zst"} {
		if replayed[name] != replayed["plain.jsonl"] {
			t.Errorf("replay of %s: %s, want the plain recording's %s", name, replayed[name], replayed["plain.jsonl"])
		}
		b, _ := os.ReadFile(filepath.Join(dir, name))
		cut := filepath.Join(dir, "cut-"+name)
		if err := os.WriteFile(cut, b[:len(b)*2/3], 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "replay", "-o", "json", cut)
		if code != 0 || !strings.Contains(stdout, `"pods"`) || !strings.Contains(stderr, "cut short") {
			t.Errorf("replay of %s cut at 2/3: exit %d, stderr %q; want the lines before the cut and a warning", name, code, stderr)
		}
	}
}

// shape is each pod of a replay's JSON by name, with its milestones' kinds and containers.
func shape(t *testing.T, doc string) string {
	t.Helper()
	var d struct {
		Pods []struct {
			Name       string `json:"name"`
			Milestones []struct {
				Kind, Container string
			} `json:"milestones"`
		} `json:"pods"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range d.Pods {
		fmt.Fprintf(&b, "%s:", p.Name)
		for _, m := range p.Milestones {
			fmt.Fprintf(&b, " %s.%s", m.Container, m.Kind)
		}
		b.WriteString("; ")
	}
	return b.String()
}
