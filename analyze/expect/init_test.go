package expect

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// initFor writes --init's TESTS for fixtures and parses it back.
func initFor(t *testing.T, files ...string) ([]byte, Reports) {
	t.Helper()
	cfg, rep := reportsOf(t, files...)
	out, err := Init(InitClusters(cfg, cfg.Clusters), rep)
	if err != nil {
		t.Fatal(err)
	}
	return out, rep
}

// TestInitThenRunPasses: --init's file holds today's values, so it passes;
// changing any one expectation past its tolerance fails exactly that
// test, with one failure at that value's position.
func TestInitThenRunPasses(t *testing.T) {
	for _, files := range [][]string{{"priority-two-levels.yaml"}, {"aggregate.yaml"}, {"hash/ring-basic.yaml", "hash/maglev-basic.yaml"}, {"priority-three-levels.yaml"}} {
		out, rep := initFor(t, files...)
		f, err := Parse("init.yaml", out)
		if err != nil {
			t.Fatalf("%v: %v\n%s", files, err, out)
		}
		res, err := Run([]*File{f}, rep)
		if err != nil || res.Summary.Failed != 0 || res.Summary.Passed != len(f.Tests) {
			t.Fatalf("%v: %v %+v\n%s", files, err, res, out)
		}
		mutated := 0
		for ti, test := range f.Tests {
			for _, e := range test.Expects {
				changed := mutate(t, out, e)
				f2, err := Parse("init.yaml", changed)
				if err != nil {
					t.Fatalf("%s: %v", e.Path, err)
				}
				res, err := Run([]*File{f2}, rep)
				if err != nil {
					t.Fatal(err)
				}
				if res.Summary.Failed != 1 {
					t.Errorf("%v %s: %d tests fail, want 1", files, e.Path, res.Summary.Failed)
					continue
				}
				fails := res.Tests[ti].Failures
				if len(fails) != 1 || fails[0].Expect != e.Path || fails[0].Pos != e.At {
					t.Errorf("%v %s at %s: failures %+v", files, e.Path, e.At, fails)
				}
				mutated++
			}
		}
		if mutated < 5 {
			t.Errorf("%v: only %d expectations", files, mutated)
		}
	}
}

// mutate rewrites the value at e.At (init writes each value last on its
// line) to one that no longer holds.
func mutate(t *testing.T, src []byte, e Expect) []byte {
	lines := strings.Split(string(src), "\n")
	line := lines[e.At.Line-1]
	val := line[e.At.Col-1:]
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(val), &n); err != nil {
		t.Fatal(err)
	}
	v := n.Content[0].Value
	var nv string
	switch {
	case v == "true", v == "false":
		nv = map[string]string{"true": "false", "false": "true"}[v]
	case v == "null":
		nv = "0"
	case strings.HasPrefix(v, "<= "):
		nv = `"< ` + v[3:] + `"`
	default:
		var x float64
		if _, err := fmt.Sscan(v, &x); err != nil {
			t.Fatalf("%s: value %q", e.Path, v)
		}
		nv = fmt.Sprint(x + 1)
	}
	lines[e.At.Line-1] = line[:e.At.Col-1] + nv
	return []byte(strings.Join(lines, "\n"))
}

func TestInitShape(t *testing.T) {
	out, _ := initFor(t, "hash/ring-basic.yaml")
	s := string(out)
	for _, want := range []string{
		"- name: \"ring\"\n  cluster: \"ring\"\n  expect:\n    priority_load:\n      0: 100\n    panic:\n      0: false\n    total_panic: false\n    budget:\n      0:\n",
		"- name: \"ring without 127.0.0.1:95\"\n  cluster: \"ring\"\n  given:\n    remove:\n    - \"127.0.0.1:95\"\n  expect:\n    moved: \"<= 0.49148212390443524\"\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("init lacks\n%s\nin\n%s", want, s)
		}
	}
}
