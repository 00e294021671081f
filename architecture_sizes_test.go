package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sizeTops are the top folders whose packages must share the lines: none
// may grow into the one package that does everything.
var sizeTops = []string{"commands", "analyze", "lbmodel"}

// goDirs lists every folder of the module holding .go files, testdata and
// hidden folders left out.
func goDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
			dirs = append(dirs, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestSizes: no hand-written .go file (tests included) over 500 lines and
// no type with more than 15 methods, anywhere in the module. Generated
// files are left out: their size is the generator's.
func TestSizes(t *testing.T) {
	for _, dir := range goDirs(t) {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		methods := map[string]int{}
		for _, p := range pkgs {
			for name, f := range p.Files {
				if ast.IsGenerated(f) {
					continue
				}
				if n := fset.Position(f.End()).Line; n > 500 {
					t.Errorf("%s: %d lines (at most 500)", name, n)
				}
				if strings.HasSuffix(name, "_test.go") {
					continue
				}
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
						if id := recvName(fd.Recv.List[0].Type); id != "" {
							methods[dir+"."+id]++
						}
					}
				}
			}
		}
		for typ, n := range methods {
			if n > 15 {
				t.Errorf("%s has %d methods (at most 15)", typ, n)
			}
		}
	}
}

// recvName is the type a method is declared on (T, *T, T[P] or *T[P]).
func recvName(typ ast.Expr) string {
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestNoPackageDominates: no package holds more than 40% of the non-test
// lines of its top folder (commands/, analyze/, lbmodel/), so each folder
// stays a set of parts rather than one part with satellites.
func TestNoPackageDominates(t *testing.T) {
	lines, totals := map[string]int{}, map[string]int{}
	for _, dir := range goDirs(t) {
		top, _, _ := strings.Cut(dir, "/")
		for _, src := range nonTestSources(t, dir) {
			n := strings.Count(src, "\n")
			lines[dir] += n
			totals[top] += n
		}
	}
	for _, top := range sizeTops {
		if totals[top] == 0 {
			t.Errorf("%s/ holds no Go lines: is the test run from the module root?", top)
		}
	}
	for dir, n := range lines {
		top, _, _ := strings.Cut(dir, "/")
		if slices.Contains(sizeTops, top) && n*100 > totals[top]*40 {
			t.Errorf("%s holds %d of %d non-test lines under %s/ (at most 40%%)", dir, n, totals[top], top)
		}
	}
}

// nonTestSources is the text of dir's non-test .go files, by path.
func nonTestSources(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}
