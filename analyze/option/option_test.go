package option

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"testing"
)

// Every Name constant is in All (the spelling table and its test walk
// All), once, and its id is a flag's long name.
func TestAllListsEveryName(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "option.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Name" {
				for _, n := range v.Names {
					consts = append(consts, n.Name)
				}
			}
		}
	}
	if len(consts) != len(All) {
		t.Errorf("%d Name constants, %d in All", len(consts), len(All))
	}
	id := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	seen := map[Name]bool{}
	for _, n := range All {
		if seen[n] || !id.MatchString(n.ID()) {
			t.Errorf("%q: repeated, or not a long flag name", n.ID())
		}
		seen[n] = true
	}
	if !slices.Contains(All, SetHealth) {
		t.Error("All lacks SetHealth")
	}
}

func TestString(t *testing.T) {
	if got, want := SetHealth.String(), "\ue000set-health\ue001"; got != want {
		t.Errorf("SetHealth.String() = %q, want %q", got, want)
	}
}
