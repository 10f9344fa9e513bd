package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var (
	// designSpanRE finds a Markdown code span, which may go on to the next line.
	designSpanRE = regexp.MustCompile("`([^`]+)`")
	// goNameRE is a Go name as the design writes it: Name, Type.Method, pkg.Func, Func().
	goNameRE = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(\(\))?$`)
)

// TestDocsDesignNames: what docs/design.md names in its code spans is there, so that a rename,
// a move or a split does not leave its recipes behind: each file (a path of the repository, a
// pattern of paths, or a bare name some directory of the module holds) exists, and each part of
// a Go name with a capital letter in it (findingRules, Builder.Apply, watch.SlimSpec) is
// declared in the module's source, as a function, method, type, variable, constant or field.
// Names in all capitals (FORMAT, NAME) stand for a value, and lower-case words may be a
// package or a command, so neither is checked.
func TestDocsDesignNames(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	declared, files := moduleNames(t)
	checked := 0
	for _, m := range designSpanRE.FindAllStringSubmatch(withoutFences(string(b)), -1) {
		span := m[1]
		switch {
		case strings.HasSuffix(span, ".go") && strings.Contains(span, "/"):
			checked++
			if got, _ := filepath.Glob(filepath.Join(repoRoot, span)); len(got) == 0 {
				t.Errorf("docs/design.md names %s, which is no file of the repository", span)
			}
		case strings.HasSuffix(span, ".go"):
			checked++
			if !files[span] {
				t.Errorf("docs/design.md names %s, which no directory of the module holds", span)
			}
		case goNameRE.MatchString(span):
			for _, part := range strings.Split(strings.TrimSuffix(span, "()"), ".") {
				if !strings.ContainsFunc(part, unicode.IsUpper) || !strings.ContainsFunc(part, unicode.IsLower) {
					continue
				}
				checked++
				if !declared[part] {
					t.Errorf("docs/design.md names %s, and %s is declared nowhere in the module", span, part)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d names of docs/design.md; its code spans were not read", checked)
	}
}

// withoutFences is a Markdown document without its fenced blocks (the package graph).
func withoutFences(doc string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// moduleNames are the names the repository's Go files declare (functions and methods, types,
// variables, constants, fields and interface methods, tests included), and the files' base
// names. Directories named testdata or starting with a dot are skipped.
func moduleNames(t *testing.T) (declared, files map[string]bool) {
	t.Helper()
	declared, files = map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go"):
			return nil
		}
		files[d.Name()] = true
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			for _, id := range declaredIdents(n) {
				declared[id.Name] = true
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return declared, files
}

// declaredIdents are the names n declares, if it is a declaration.
func declaredIdents(n ast.Node) []*ast.Ident {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return []*ast.Ident{n.Name}
	case *ast.TypeSpec:
		return []*ast.Ident{n.Name}
	case *ast.ValueSpec:
		return n.Names
	case *ast.Field:
		return n.Names
	}
	return nil
}
