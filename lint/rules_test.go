package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze"
)

const fixtureDir = "../fixtures/lint"

var (
	idRE   = regexp.MustCompile(`^LB\d{4}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	wantRE = regexp.MustCompile(`#\s*want:\s*(LB\d{4})\s+(\d+):(\d+)`)
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
func fixture(t *testing.T, path string) (wants []string, inputs []analyze.Input) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inputs = []analyze.Input{{Path: path}}
	for _, line := range strings.Split(string(data), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			wants = append(wants, m[1]+" "+m[2]+":"+m[3])
		}
		if i := strings.Index(line, "# input:"); i >= 0 {
			inputs = append(inputs, analyze.Input{Path: filepath.Join(fixtureDir, strings.TrimSpace(line[i+len("# input:"):]))})
		}
	}
	sort.Strings(wants)
	return wants, inputs
}

func lintFiles(inputs []analyze.Input) []Finding {
	cfg, _ := analyze.Load(inputs, "")
	return Run(cfg, Options{})
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
			wants, inputs := fixture(t, bad)
			own := 0
			for _, w := range wants {
				if strings.HasPrefix(w, r.ID+" ") {
					own++
				}
			}
			if own == 0 {
				t.Errorf("%s wants no finding of %s", bad, r.ID)
			}
			fs := lintFiles(inputs)
			if g := got(fs, bad); strings.Join(g, "\n") != strings.Join(wants, "\n") {
				t.Errorf("%s:\n got  %q\n want %q", bad, g, wants)
				for _, f := range fs {
					t.Logf("  %s: %s %s %s", f.Pos, f.Severity, f.Rule, f.Message)
				}
			}
			good := filepath.Join(fixtureDir, r.ID+"-good.yaml")
			if _, inputs := fixture(t, good); true {
				for _, f := range lintFiles(inputs) {
					t.Errorf("%s is meant to be clean: %s: %s %s %s", good, f.Pos, f.Severity, f.Rule, f.Message)
				}
			}
		})
	}
}
