package commands

import (
	"strings"
	"testing"
)

// TestTemplateFilesInDirectory: a directory walk reads templates of YAML or
// JSON files (envoy.yaml.tpl, bootstrap.json.j2) as lbctl reads any
// template, placeholders unknown, and counts a template that names no
// format (Helm's _helpers.tpl) in the one line of skipped files.
func TestTemplateFilesInDirectory(t *testing.T) {
	dir := wrappers + "templates"
	code, out, errs := runLBCTL("lint", "--format", "json", dir)
	for _, want := range []string{`"file": "` + dir + `/envoy.yaml.tpl"`, `"rule": "LB1109"`, `"file": "` + dir + `/bootstrap.json.j2"`} {
		if !strings.Contains(out, want) {
			t.Errorf("lint %s: no %s in\n%s", dir, want, out)
		}
	}
	skipped := "lbctl: skipped 1 file holding no Envoy config (" + dir + "/chart/_helpers.tpl)\n"
	if code != ExitFindings || errs != skipped {
		t.Errorf("lint %s: exit %d, stderr %q; want %d and %q", dir, code, errs, ExitFindings, skipped)
	}
}
