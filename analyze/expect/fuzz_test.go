package expect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// FuzzParse: any bytes are parsed and run without a panic, and every error
// is positioned and printable.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../../fixtures/tests/*")
	more, _ := filepath.Glob("../../fixtures/tests/broken/*")
	for _, p := range append(paths, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{"", "tests: 5", "[]", "tests: [1, [2], {}]", "tests:\n- &a {name: x, cluster: c, expect: *a}",
		"tests:\n- name: x\n  cluster: c\n  expect: {priority_load: {999: 1}, budget: {0: 5}}",
		"tests:\n- test_name: x\n  input: {path: /}\n  validate: {cluster_name: [1]}", "\x00\x01"} {
		f.Add([]byte(s))
	}
	rep := Reports{
		Cluster: func(string, Given) (*traffic.Report, error) {
			return &traffic.Report{Clusters: []traffic.ClusterReport{{Name: "c", Priorities: []traffic.PriorityReport{{}}}}}, nil
		},
		Request: func(Request, Given) (RouteResult, error) { return RouteResult{}, nil },
		Moved:   func(string, []string) (float64, error) { return 0, nil },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("t.yaml", data)
		if err == nil {
			_, err = Run([]*File{file}, rep)
		}
		if ie, ok := err.(InputErrors); ok {
			for _, e := range ie {
				if e.At.Line < 1 || e.At.File != "t.yaml" {
					t.Fatalf("unpositioned error %v", e)
				}
				for _, r := range e.Msg {
					if r < 0x20 || r == 0x7f {
						t.Fatalf("raw control character in %q", e.Msg)
					}
				}
			}
		} else if err != nil {
			t.Fatalf("not an input error: %v", err)
		}
	})
}
