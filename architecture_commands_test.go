package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commandsShared are the packages under commands/ that are not a command:
// every command may import them; they import no command.
var commandsShared = map[string]bool{
	"commands/term": true, "commands/encode": true, "commands/cmdutil": true, "commands/gitrev": true,
	"commands/quick": true, "commands/early": true, "commands/term/size": true,
}

// layer orders the commands packages: each imports only lower layers
// (root 3 → a command 2 → cmdutil 1 → encode, gitrev 0.5 → term 0 →
// term/size -1, which quick also takes help's width from).
func layer(pkg string) float64 {
	switch {
	case pkg == "commands":
		return 3
	case pkg == "commands/cmdutil":
		return 1
	case pkg == "commands/encode" || pkg == "commands/gitrev":
		return 0.5
	case pkg == "commands/term":
		return 0
	case pkg == "commands/term/size":
		return -1
	case commandsShared[pkg]:
		return 1
	}
	return 2
}

func commandsDirs(t *testing.T) []string {
	t.Helper()
	dirs := []string{"commands"}
	err := filepath.WalkDir("commands", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != "commands" && !strings.Contains(p, "testdata") {
			if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
				dirs = append(dirs, filepath.ToSlash(p))
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestCommandsLayers: no command imports another command's package, and
// imports go strictly down root → commands/<cmd> → cmdutil → encode/gitrev
// → term (then analyze, lint, lbmodel).
func TestCommandsLayers(t *testing.T) {
	for _, dir := range commandsDirs(t) {
		for _, imp := range imports(t, dir) {
			if !strings.HasPrefix(imp, "commands") || imp == dir {
				continue
			}
			if !commandsShared[dir] && dir != "commands" && !commandsShared[imp] {
				t.Errorf("%s imports %s: a command never imports another command", dir, imp)
			} else if layer(imp) >= layer(dir) && !(dir == "commands/early" && imp == "commands/quick") {
				t.Errorf("%s imports %s: imports go down root → command → cmdutil → encode/gitrev → term", dir, imp)
			}
		}
	}
}

// TestOnlyTermWritesStdout: commands/term owns the process's stdout and
// stderr. commands/early is the exception: it answers help before the
// protobuf packages initialise, so it cannot import term.
func TestOnlyTermWritesStdout(t *testing.T) {
	for _, dir := range commandsDirs(t) {
		if dir == "commands/term" || dir == "commands/early" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if s := string(b); strings.Contains(s, "os.Stdout") || strings.Contains(s, "os.Stderr") {
				t.Errorf("%s names os.Stdout or os.Stderr: write through commands/term", f)
			}
		}
	}
}

// TestCommandsSizes: no type under commands/ has more than 15 methods and
// no hand-written file more than 500 lines.
func TestCommandsSizes(t *testing.T) {
	for _, dir := range commandsDirs(t) {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ParseComments)
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
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
						typ := fd.Recv.List[0].Type
						if s, ok := typ.(*ast.StarExpr); ok {
							typ = s.X
						}
						if id, ok := typ.(*ast.Ident); ok {
							methods[dir+"."+id.Name]++
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

// TestNoCommandsPackageDominates: no package holds more than 40% of the
// non-test lines under commands/, so the root stays wiring.
func TestNoCommandsPackageDominates(t *testing.T) {
	lines, total := map[string]int{}, 0
	for _, dir := range commandsDirs(t) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			n := strings.Count(string(b), "\n")
			lines[dir] += n
			total += n
		}
	}
	for dir, n := range lines {
		if n*100 > total*40 {
			t.Errorf("%s holds %d of %d non-test lines under commands/ (at most 40%%)", dir, n, total)
		}
	}
}
