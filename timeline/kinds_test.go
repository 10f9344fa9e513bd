package timeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// TestKindsRegistry reads the package's source for every MilestoneKind constant and fails on one
// the registry (Kinds) does not declare, and on a registry whose rows are incomplete or clash.
func TestKindsRegistry(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, f := range pkgs["timeline"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || vs.Type == nil || len(vs.Values) != 1 {
				return true
			}
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "MilestoneKind" {
				return true
			}
			lit, ok := vs.Values[0].(*ast.BasicLit)
			if !ok {
				return true
			}
			v, _ := strconv.Unquote(lit.Value)
			declared++
			if _, ok := InfoOf(MilestoneKind(v)); !ok {
				t.Errorf("%s = %q is not in the registry of kinds (timeline/kinds.go)", vs.Names[0], v)
			}
			return true
		})
	}
	if declared != len(Kinds()) {
		t.Errorf("%d MilestoneKind constants, %d kinds in the registry", declared, len(Kinds()))
	}
	asserts := map[Scope]map[string]MilestoneKind{}
	for _, k := range Kinds() {
		if k.Display == "" || k.Doc == "" || k.Scope == 0 {
			t.Errorf("kind %q: incomplete row %+v", k.Kind, k)
		}
		for _, s := range []Scope{ScopeContainer, ScopePod, ScopeJob} {
			if !k.On(s) || k.Assert == "" {
				continue
			}
			if asserts[s] == nil {
				asserts[s] = map[string]MilestoneKind{}
			}
			if other, dup := asserts[s][k.Assert]; dup {
				t.Errorf("kinds %q and %q share the assertion name %q", k.Kind, other, k.Assert)
			}
			asserts[s][k.Assert] = k.Kind
		}
	}
}
