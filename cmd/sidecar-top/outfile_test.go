package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputNeverInput: no output overwrites an input, named as it is, through a symbolic link,
// or as a hard link to it: export -o and check --junit over the recording, an --export or
// record -o over the kubeconfig, an --export over the recording record writes. Each is refused
// with one line, before anything is read or connects, and the input is left as it was.
func TestOutputNeverInput(t *testing.T) {
	rec := recordingFile(t, "startup-probe")
	orig, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link, hard := filepath.Join(dir, "link.jsonl"), filepath.Join(dir, "hard.jsonl")
	if err := os.Symlink(rec, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(rec, hard); err != nil {
		t.Fatal(err)
	}
	cfg := unreachableConfig(t)
	cfgOrig, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	newRec := filepath.Join(dir, "new.jsonl")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", rec, "--format", "markdown", "--output-file", rec}, 1, "--output-file " + rec + " is " + rec + ", which this run reads"},
		{[]string{"export", rec, "--format", "svg", "--output-file", link}, 1, "is the same file as " + rec},
		{[]string{"export", link, "--format", "perfetto", "--output-file", hard}, 1, "is the same file as " + link},
		{[]string{"check", rec, "--assert", "app.restarts == 0", "--junit", rec}, 2, "--junit " + rec + " is " + rec},
		{[]string{"check", rec, "--assert", "app.restarts == 0", "--junit", link}, 2, "is the same file as " + rec},
		{[]string{"--kubeconfig", cfg, "pod/x", "--export", "markdown=" + cfg}, 1, "--export markdown " + cfg + " is " + cfg},
		{[]string{"record", "--kubeconfig", cfg, "pod/x", "--output-file", cfg}, 1, "--output-file " + cfg + " is " + cfg},
		{[]string{"record", "--kubeconfig", cfg, "pod/x", "--output-file", newRec, "--export", "svg=" + newRec}, 1, "--export svg " + newRec + " is " + newRec},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, tt.args...)
		if code != tt.code || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, nothing, one line with %q", tt.args, code, stdout, stderr, tt.code, tt.want)
		}
	}
	code, _, stderr := runCmdIn(t, rec, "check", "-", "--assert", "app.restarts == 0", "--junit", hard)
	if code != 2 || !strings.Contains(stderr, "is the same file as standard input") {
		t.Errorf("check - --junit (standard input's file): exit %d, %q; want 2, refused", code, stderr)
	}
	for path, want := range map[string][]byte{rec: orig, cfg: cfgOrig} {
		if b, err := os.ReadFile(path); err != nil || string(b) != string(want) {
			t.Errorf("%s was changed (%v)", path, err)
		}
	}
	if _, err := os.Lstat(newRec); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("record refused an --export, yet left its recording %s (%v)", newRec, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link %s is no longer a link (%v)", link, err)
	}
}

// TestWriteOutput: a file output is written whole or not at all. A write that fails leaves the
// file it would replace as it was, and nothing beside it; one that succeeds replaces it, keeping
// its permissions, and writes through a symbolic link rather than replacing the link; a path that
// is not a regular file (/dev/null) is written to as it is.
func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	if err := os.WriteFile(path, []byte("before"), 0o600); err != nil {
		t.Fatal(err)
	}
	failing := func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk on fire")
	}
	if err := writeOutput("export", path, nil, failing); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("a failing write returned %v", err)
	}
	checkDir := func(want string) {
		t.Helper()
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("the directory holds %q, want %q", got, want)
		}
	}
	checkDir("out.md")
	if b, _ := os.ReadFile(path); string(b) != "before" {
		t.Errorf("a failed write left %q, want the file as it was", b)
	}

	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := writeOutput("export", link, nil, func(w io.Writer) error { _, err := io.WriteString(w, "after"); return err }); err != nil {
		t.Fatal(err)
	}
	checkDir("link.md out.md")
	fi, err := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "after" || err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("after a write through the link: %q, mode %v (%v); want \"after\", -rw-------", b, fi.Mode(), err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v)", err)
	}
	if err := writeOutput("--junit", os.DevNull, nil, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Errorf("writing %s: %v", os.DevNull, err)
	}
}
