package commands

import (
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestVersionFrom(t *testing.T) {
	gcp := []*debug.Module{{Path: "github.com/envoyproxy/go-control-plane/envoy", Version: "v1.40.0"}}
	for _, c := range []struct {
		version, api string
		bi           *debug.BuildInfo
		want         string
	}{
		// go install github.com/lbctl/lbctl@v0.3.0
		{"dev", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Deps: gcp}, "v0.3.0 (Envoy API: go-control-plane/envoy v1.40.0)"},
		// goreleaser: -X …Version=0.3.0 ({{ .Version }} has no v)
		{"0.3.0", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Deps: gcp}, "v0.3.0 (Envoy API: go-control-plane/envoy v1.40.0)"},
		{"dev", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Deps: gcp}, "dev (Envoy API: go-control-plane/envoy v1.40.0)"},
		{"dev", "Envoy v1.36", &debug.BuildInfo{Deps: gcp}, "dev (Envoy API: Envoy v1.36)"},
		{"dev", "", nil, "dev (Envoy API: go-control-plane/envoy unknown)"},
	} {
		if got := versionFrom(c.version, c.api, c.bi); got != c.want {
			t.Errorf("versionFrom(%q, %q) = %q, want %q", c.version, c.api, got, c.want)
		}
	}
}

// The distribution files parse, name the module go.mod declares, and set
// variables that exist.
func TestDistributionFiles(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := strings.Fields(strings.SplitN(string(gomod), "\n", 2)[0])[1]
	readme, _ := os.ReadFile("../README.md")
	if !strings.Contains(string(readme), "go install "+module+"@latest") {
		t.Errorf("README lacks the install line go install %s@latest", module)
	}
	var hooks []map[string]any
	mustYAML(t, "../.pre-commit-hooks.yaml", &hooks)
	if len(hooks) != 2 || hooks[0]["entry"] != "lbctl lint --skip-non-envoy" || hooks[0]["language"] != "golang" ||
		hooks[1]["id"] != "lbctl-test" || hooks[1]["entry"] != "lbctl test" || hooks[1]["language"] != "golang" {
		t.Errorf(".pre-commit-hooks.yaml: %v", hooks)
	}
	// docs/lint.md says what the hook runs, and shows it running.
	doc, _ := os.ReadFile("../docs/lint.md")
	if len(hooks) == 0 {
		t.Fatal(".pre-commit-hooks.yaml has no hook")
	}
	m := regexp.MustCompile("The hook runs `([^`]+)` on every YAML and JSON file").FindSubmatch(doc)
	if m == nil || string(m[1]) != hooks[0]["entry"] || !strings.Contains(string(doc), "$ pre-commit run --all-files") ||
		!strings.Contains(string(doc), "- hook id: "+hooks[0]["id"].(string)) {
		t.Errorf("docs/lint.md: the hook runs %q, want %q (.pre-commit-hooks.yaml's entry), with a pre-commit run shown", m, hooks[0]["entry"])
	}
	var action struct {
		Runs struct {
			Using string
			Steps []map[string]any
		}
	}
	mustYAML(t, "../action.yml", &action)
	var uses, runs []string
	for _, s := range action.Runs.Steps {
		if u, ok := s["uses"].(string); ok {
			uses = append(uses, u)
		}
		if r, ok := s["run"].(string); ok {
			runs = append(runs, r)
		}
	}
	all := strings.Join(runs, "\n")
	if action.Runs.Using != "composite" || !strings.Contains(strings.Join(uses, " "), "github/codeql-action/upload-sarif") ||
		!strings.Contains(all, "lint --skip-non-envoy $LINT_PATH") || !strings.Contains(all, "--format sarif") ||
		!strings.Contains(all, `test --skip-non-envoy $LINT_PATH "${tests[@]}" --format github`) {
		t.Errorf("action.yml: uses %v, runs %s", uses, all)
	}
	var gr struct {
		Builds []struct{ Ldflags []string }
	}
	mustYAML(t, "../.goreleaser.yaml", &gr)
	x := regexp.MustCompile(`-X (\S+)\.(\w+)=`)
	for _, text := range append([]string{all}, gr.Builds[0].Ldflags...) {
		for _, m := range x.FindAllStringSubmatch(text, -1) {
			if m[1] != module+"/commands" || (m[2] != "Version" && m[2] != "EnvoyAPI") {
				t.Errorf("-X %s.%s sets no variable of lbctl", m[1], m[2])
			}
		}
	}
	if len(gr.Builds) == 0 || !strings.Contains(strings.Join(gr.Builds[0].Ldflags, " "), "commands.Version=") {
		t.Errorf(".goreleaser.yaml does not set the version: %v", gr.Builds)
	}
}

func mustYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
