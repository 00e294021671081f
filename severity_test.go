package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestProblemsNameSeverity keeps every config.Problem literal explicit about
// its severity: the zero value is config.SevNone, which neither lint nor
// Problems.Errors counts, so a forgotten severity would hide an error.
func TestProblemsNameSeverity(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("analyze", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		// Inside analyze/config the type is spelt Problem, elsewhere config.Problem.
		local := filepath.Dir(path) == filepath.Join("analyze", "config")
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if isProblemType(cl.Type, local) && !namesSeverity(cl) {
				t.Errorf("%s: Problem without a Severity", fset.Position(cl.Pos()))
			}
			if at, ok := cl.Type.(*ast.ArrayType); (ok && isProblemType(at.Elt, local)) || isProblemType(cl.Type, local, "Problems") {
				for _, el := range cl.Elts {
					if c, ok := el.(*ast.CompositeLit); ok && c.Type == nil && !namesSeverity(c) {
						t.Errorf("%s: Problem without a Severity", fset.Position(c.Pos()))
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// isProblemType tells whether e spells config.Problem (or the named type).
func isProblemType(e ast.Expr, local bool, name ...string) bool {
	want := "Problem"
	if len(name) > 0 {
		want = name[0]
	}
	switch e := e.(type) {
	case *ast.Ident:
		return local && e.Name == want
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "config" && e.Sel.Name == want
	}
	return false
}

func namesSeverity(cl *ast.CompositeLit) bool {
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return true // positional: every field is given
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Severity" {
			return true
		}
	}
	return false
}
