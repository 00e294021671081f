package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// notLbctlFlags are string literals under analyze/, lint/ and lbmodel/
// that spell a flag which is not lbctl's, by file: the reason is the value.
var notLbctlFlags = map[string]map[string]string{
	"analyze/config/detect_schema.go": {"--to xds": "egctl x translate's flag, not lbctl's"},
	"lint/unknown_field.go":           {"--allow-unknown-fields": "Envoy's command-line flag, not lbctl's"},
}

var flagLike = regexp.MustCompile(`--[A-Za-z][A-Za-z-]*`)

// TestReportsNameNoFlags: reports and lint never spell a CLI flag
// (issue 25). They name an option (analyze/option) and the command that
// renders the message spells it, so a string literal outside tests
// holds no "--" followed by a letter.
func TestReportsNameNoFlags(t *testing.T) {
	for _, root := range []string{"analyze", "lint", "lbmodel"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			allowed := notLbctlFlags[filepath.ToSlash(path)]
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, m := range flagLike.FindAllString(s, -1) {
					if !allowedFlag(allowed, s, m) {
						t.Errorf("%s: %q spells a flag: name it with analyze/option (fmt %%s of option.Name)", path, m)
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
}

// allowedFlag: the literal s holds the flag m only inside an allowed
// phrase.
func allowedFlag(allowed map[string]string, s, m string) bool {
	for phrase := range allowed {
		if strings.Contains(phrase, m) && strings.Contains(s, phrase) {
			return true
		}
	}
	return false
}
