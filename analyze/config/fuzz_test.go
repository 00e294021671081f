package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader: whatever the input, it
// must return a configuration with problems, never panic.
func FuzzLoad(f *testing.F) {
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
	f.Fuzz(func(t *testing.T, data []byte) {
		if cfg, _ := LoadBytes("fuzz.yaml", data, ""); cfg == nil {
			t.Fatal("nil config")
		}
	})
}
