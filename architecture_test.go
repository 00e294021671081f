package main

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/lbctl/lbctl/"

// shared are the analyze packages every report may import; every other
// package under analyze/ is a report (ARCHITECTURE.md).
var shared = map[string]bool{"analyze/option": true, "analyze/config": true, "analyze/config/parse": true, "analyze/model": true, "analyze/placement": true, "analyze/traffic": true}

// imports lists the project packages that dir's non-test files import.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasPrefix(path, module) {
					out = append(out, strings.TrimPrefix(path, module))
				}
			}
		}
	}
	return out
}

// TestImportDirection keeps the data flowing one way: files → analyze/config
// → shared derived values → one report per package → commands; lbmodel is
// pure and lint never depends on a report.
func TestImportDirection(t *testing.T) {
	for _, dir := range goDirs(t) {
		if !under(dir, "analyze") && !under(dir, "lbmodel") && !under(dir, "lint") {
			continue
		}
		for _, imp := range imports(t, dir) {
			bad := ""
			switch {
			case dir == "lbmodel":
				bad = "lbmodel imports nothing of ours"
			case strings.HasPrefix(dir, "lbmodel/") && imp != "lbmodel":
				bad = "an lbmodel subpackage imports only the lbmodel core"
			case imp == "commands":
				bad = "only main imports commands"
			case dir == "analyze/config" && imp != "lbmodel" && !strings.HasPrefix(imp, "lbmodel/") && imp != "analyze/config/parse" && imp != "analyze/option":
				bad = "the loader imports only lbmodel, its parse layer and option names"
			case dir == "analyze/option":
				bad = "option names import nothing of ours"
			case dir == "analyze/config/parse":
				bad = "the parse layer imports nothing of ours"
			case dir == "analyze/traffic":
				bad = "traffic is plain report types"
			case strings.HasPrefix(imp, "analyze/") && !shared[imp] && imp != dir:
				bad = "reports are imported only by commands"
			case shared[dir] && imp == "lint":
				bad = "shared analyze packages do not import lint"
			}
			if bad != "" {
				t.Errorf("%s imports %s: %s", dir, imp, bad)
			}
		}
	}
}

// TestNetworkImports keeps the network clients in analyze/config/fetch:
// loading files must not link (or initialise) net/http or gRPC.
func TestNetworkImports(t *testing.T) {
	for _, dir := range goDirs(t) {
		if !under(dir, "analyze") || dir == "analyze/config/fetch" {
			continue
		}
		pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for name, f := range p.Files {
				for _, imp := range f.Imports {
					ip, _ := strconv.Unquote(imp.Path.Value)
					if strings.HasPrefix(ip, "net/http") || ip == "google.golang.org/grpc" || strings.HasPrefix(ip, "google.golang.org/grpc/") {
						t.Errorf("%s imports %s: only analyze/config/fetch talks to the network", name, ip)
					}
				}
			}
		}
	}
}

// under reports whether dir is top or a folder below it.
func under(dir, top string) bool {
	return dir == top || strings.HasPrefix(dir, top+"/")
}
