package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module's path, which `go list` prefixes every package of it with.
const module = "github.com/sidecar-top/sidecar-top"

// TestDocsPackageGraph: docs/design.md's package graph is the one the code has, as `go list`
// says it (each package of the module and the packages of the module it imports), so it cannot
// go stale; `make readme` (-update) writes it.
func TestDocsPackageGraph(t *testing.T) {
	imports := moduleImports(t)
	fillMarked(t, filepath.Join(repoRoot, "docs", "design.md"), "graph", packageGraph(imports))
}

// moduleImports is, for each package of the module, the packages of the module it imports,
// both without the module's path (the root package would be "").
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	// go test puts its own go first on the PATH of the test.
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = repoRoot
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	local := func(p string) (string, bool) {
		if p == module {
			return "", true
		}
		return strings.CutPrefix(p, module+"/")
	}
	imports := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(l)
		pkg, ok := local(fields[0])
		if !ok {
			t.Fatalf("go list named %q, which is not the module's", fields[0])
		}
		imports[pkg] = []string{}
		for _, imp := range fields[1:] {
			if p, ok := local(imp); ok {
				imports[pkg] = append(imports[pkg], p)
			}
		}
		slices.Sort(imports[pkg])
	}
	return imports
}

// packageGraph draws the graph as Mermaid (GitHub shows it as a picture) and as a table that
// reads as text too: a package per row, in the order of its path, with what it imports.
func packageGraph(imports map[string][]string) string {
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	id := strings.NewReplacer("/", "_", "-", "_", ".", "_").Replace
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "  %s[%q]\n", id(p), p)
	}
	for _, p := range pkgs {
		for _, imp := range imports[p] {
			fmt.Fprintf(&b, "  %s --> %s\n", id(p), id(imp))
		}
	}
	b.WriteString("```\n\n| package | imports, of this module |\n|---|---|\n")
	for _, p := range pkgs {
		deps := "none"
		if len(imports[p]) > 0 {
			deps = "`" + strings.Join(imports[p], "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", p, deps)
	}
	return b.String()
}
