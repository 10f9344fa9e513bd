package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sidecar-top/sidecar-top/recfile"
)

// refusalRoom is what replaying a file refused at an over-long line may take beyond the line's
// limit (recfile.MaxLineBytes): the reader's buffer and a chunk of the line (a MiB each), what was
// read before it, and the program's own pages touched for the first time by the replay.
const refusalRoom = 24 << 20

// testNameRE finds the tests a row of docs/hostile.md names: `TestX` or `FuzzX`.
var testNameRE = regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]+)`")

// TestHostileDoc: every row of docs/hostile.md's tables names at least one test, and every test
// it names exists (a func of that name in a _test.go file of the repository), so that no row
// claims what nothing checks. The line limit and the memory a refusal may take are the figures
// the code and TestReplayMemory hold to.
func TestHostileDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "hostile.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	declared := testFuncs(t)
	rows := 0
	for i, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| Hostile case |") {
			continue
		}
		rows++
		names := testNameRE.FindAllStringSubmatch(line, -1)
		if len(names) == 0 {
			t.Errorf("docs/hostile.md:%d: a row that names no test: %.80s", i+1, line)
		}
		for _, m := range names {
			if !declared[m[1]] {
				t.Errorf("docs/hostile.md:%d: %s is no test of the repository", i+1, m[1])
			}
		}
	}
	if rows < 10 {
		t.Errorf("docs/hostile.md has %d rows; its tables were not read", rows)
	}
	for _, want := range []string{
		fmt.Sprintf("the line limit, %d MiB (recfile.MaxLineBytes)", recfile.MaxLineBytes>>20),
		fmt.Sprintf("grows by the line limit and at most %d MiB", refusalRoom>>20),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/hostile.md does not say %q", want)
		}
	}
}

// testFuncs are the names of the test and fuzz functions of the repository.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]+)\(`)
	names := map[string]bool{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != repoRoot:
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
