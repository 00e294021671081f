package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

const fixtureDir = "../fixtures/lint"

var (
	idRE   = regexp.MustCompile(`^LB\d{4}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	wantRE = regexp.MustCompile(`#\s*want:\s*(LB\d{4})\s+(\d+):(\d+)`)
	// targetRE: "# target: grpc|envoy|both" picks the targets a fixture is
	// linted for; without it, envoy, or grpc for rules that only apply there.
	targetRE = regexp.MustCompile(`#\s*target:\s*(\w+)`)
)

func TestRegistry(t *testing.T) {
	if len(duplicates) > 0 {
		t.Fatalf("duplicate rule IDs: %v", duplicates)
	}
	names := map[string]string{}
	catalogue := 0
	for _, r := range Rules() {
		if !idRE.MatchString(r.ID) || !nameRE.MatchString(r.Name) {
			t.Errorf("%s %s: bad ID or name", r.ID, r.Name)
		}
		if prev, ok := names[r.Name]; ok {
			t.Errorf("%s and %s share the name %s", prev, r.ID, r.Name)
		}
		names[r.Name] = r.ID
		if r.Doc == "" || r.Hint == "" || len(r.Severity) == 0 {
			t.Errorf("%s: missing doc, hint or severity", r.ID)
		}
		if r.Spec != "" {
			catalogue++
		}
	}
	if r := Lookup("LB1203"); r == nil || r.Name != "aggregate-unknown-child" {
		t.Errorf("the contract's example LB1203 aggregate-unknown-child is missing")
	}
	if catalogue < 40 {
		t.Errorf("only %d catalogue rules, want at least 40", catalogue)
	}
}

// fixture reads a fixture's "# want: ID LINE:COL" lines and "# input:"
// extra paths (relative to the fixture directory).
func fixture(t *testing.T, path string) (wants []string, inputs []config.Input) {
	wants, inputs, _ = fixtureTargets(t, path)
	return wants, inputs
}

// fixtureTargets is fixture plus the "# target:" directive ("" if none).
func fixtureTargets(t *testing.T, path string) (wants []string, inputs []config.Input, target string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inputs = []config.Input{{Path: path}}
	for _, line := range strings.Split(string(data), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			wants = append(wants, m[1]+" "+m[2]+":"+m[3])
		}
		if m := targetRE.FindStringSubmatch(line); m != nil {
			target = m[1]
		}
		if i := strings.Index(line, "# input:"); i >= 0 {
			inputs = append(inputs, config.Input{Path: filepath.Join(fixtureDir, strings.TrimSpace(line[i+len("# input:"):]))})
		}
	}
	sort.Strings(wants)
	return wants, inputs, target
}

func lintFiles(inputs []config.Input, targets ...Target) []Finding {
	cfg, _ := config.Load(inputs, "")
	return Run(cfg, Options{Targets: targets})
}

// fixtureRun lints a fixture for its "# target:" directive, or for rule r's
// default target (envoy, or grpc when r does not apply to envoy).
func fixtureRun(t *testing.T, r *Rule, target string, inputs []config.Input) []Finding {
	if target == "" {
		target = string(TargetEnvoy)
		if !r.Applies(TargetEnvoy) {
			target = string(TargetGRPC)
		}
	}
	ts, err := ParseTargets(target)
	if err != nil {
		t.Fatal(err)
	}
	return lintFiles(inputs, ts...)
}

func got(fs []Finding, file string) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %d:%d", f.Rule, f.Pos.Line, f.Pos.Col))
	}
	sort.Strings(out)
	return out
}

// TestFixtures: every rule has LBnnnn-bad.yaml, whose findings are exactly
// its "# want:" lines (at least one of the rule itself), and
// LBnnnn-good.yaml, which lints clean.
func TestFixtures(t *testing.T) {
	for _, r := range Rules() {
		t.Run(r.ID+"-"+r.Name, func(t *testing.T) {
			bad := filepath.Join(fixtureDir, r.ID+"-bad.yaml")
			wants, inputs, target := fixtureTargets(t, bad)
			own := 0
			for _, w := range wants {
				if strings.HasPrefix(w, r.ID+" ") {
					own++
				}
			}
			if own == 0 {
				t.Errorf("%s wants no finding of %s", bad, r.ID)
			}
			fs := fixtureRun(t, r, target, inputs)
			if g := got(fs, bad); strings.Join(g, "\n") != strings.Join(wants, "\n") {
				t.Errorf("%s:\n got  %q\n want %q", bad, g, wants)
				for _, f := range fs {
					t.Logf("  %s: %s %s %s", f.Pos, f.Severity, f.Rule, f.Message)
				}
			}
			good := filepath.Join(fixtureDir, r.ID+"-good.yaml")
			if _, inputs, target := fixtureTargets(t, good); true {
				for _, f := range fixtureRun(t, r, target, inputs) {
					t.Errorf("%s is meant to be clean: %s: %s %s %s", good, f.Pos, f.Severity, f.Rule, f.Message)
				}
			}
		})
	}
}
