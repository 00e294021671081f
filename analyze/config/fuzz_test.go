package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Every loader entry point has a fuzz target: whatever the input, the
// loader returns a configuration with problems, never panics or hangs.
// go test runs the seeds (f.Add and testdata/fuzz/<Target>, which holds
// hostile inputs from issue 19); go test -fuzz=FuzzX runs longer by hand.

func addFixtureSeeds(f *testing.F) {
	seeds, _ := filepath.Glob("../../fixtures/*.yaml")
	broken, _ := filepath.Glob("../../fixtures/broken/*.yaml")
	for _, p := range append(seeds, broken...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "x"}`))
	f.Add([]byte("- name: a\n- clusters: [1, 2]\n---\nconfigs: [{}]\n"))
	// Shapes yamlcpp.go and detect_schema.go handle.
	f.Add([]byte("a:\n\t# tab\n  b: {{.X}}\n---\n{}\n---\nbootstrap: {node: {id: n}}\n"))
	f.Add([]byte("ns:\n  pod:\n    configs: []\n---\n- name: r\n  validate_clusters: yes\n"))
	f.Add([]byte(laughs()))
	// Repeated keys (decoded again with the first value), a ConfigMap's
	// embedded document, dump sections saved alone.
	f.Add([]byte("name: w\nlb_policy: RANDOM\nlb_policy: RING_HASH\nload_assignment: {cluster_name: w}\nload_assignment: {cluster_name: v}\n"))
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\ndata:\n  e.yaml: |\n    static_resources:\n      clusters:\n      - name: a\n        name: b\n"))
	f.Add([]byte("bootstrap: {static_resources: {clusters: [{name: a}]}}\n---\n'@type': type.googleapis.com/envoy.admin.v3.ClustersConfigDump\nstatic_clusters: [{cluster: {'@type': type.googleapis.com/envoy.config.cluster.v3.Cluster, name: a}}]\n"))
	f.Add(repeatedBootstrap(50, "lb_policy", func(int) string { return "RANDOM" }, func(int) string { return "RING_HASH" }))
}

// FuzzLoadTwo is Load over two inputs (the data cut in two), and
// LoadGroups over two files of one directory, so joining sections and
// groups is on a fuzzed path.
func FuzzLoadTwo(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := data[:len(data)/2], data[len(data)/2:]
		cfg, _ := Load([]Input{{Path: "a.yaml", Data: a}, {Path: "b.yaml", Data: b}}, "")
		if cfg == nil {
			t.Fatal("nil config")
		}
		cfgs, _ := LoadGroups([]Input{{Path: "d/a.yaml", Data: data}, {Path: "d/b.yaml", Data: b}}, "", false)
		if len(cfgs) == 0 {
			t.Fatal("no configuration")
		}
	})
}

// FuzzLoad is LoadBytes, the loader of one document stream.
func FuzzLoad(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan *Config, 1)
		go func() {
			cfg, _ := LoadBytes("fuzz.yaml", data, "")
			done <- cfg
		}()
		select {
		case cfg := <-done:
			if cfg == nil {
				t.Fatal("nil config")
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("LoadBytes still running after 10 s on %d bytes: %q", len(data), data)
		}
	})
}

// FuzzLoadGroups is LoadGroups as the commands call it: a stdin or fetched
// input (named .json, so JSON rules apply), every --kind, grouped or merged.
func FuzzLoadGroups(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, kind := range append([]string{""}, Kinds...) {
			cfgs, _ := LoadGroupsLimited([]Input{{Path: "fuzz.json", Data: data}}, kind, i%2 == 0, Limits{MaxInput: 1 << 20})
			if len(cfgs) == 0 || cfgs[0] == nil {
				t.Fatalf("kind %q: no configuration", kind)
			}
		}
	})
}

// FuzzQuickClusterNames is the completion scan of files on disk.
func FuzzQuickClusterNames(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.yaml")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		QuickClusterNames([]string{p})
	})
}
