package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got, with ANSI sequences stripped, with testdata/<test name>.golden, or
// rewrites that file under -update.
func golden(t *testing.T, got string) {
	t.Helper()
	got = ansi.Strip(got)
	path := filepath.Join("testdata", filepath.FromSlash(t.Name())+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(got, "\n"), strings.Split(string(want), "\n")); diff != "" {
		t.Errorf("output differs from %s (-got +want):\n%s", path, diff)
	}
}
