package analyze

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader and explain: whatever the
// input, lbctl must return problems, never panic.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("../fixtures/*.yaml")
	broken, _ := filepath.Glob("../fixtures/broken/*.yaml")
	for _, p := range append(seeds, broken...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "x"}`))
	f.Add([]byte("- name: a\n- clusters: [1, 2]\n---\nconfigs: [{}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _ := LoadBytes("fuzz.yaml", data, "")
		if cfg == nil {
			t.Fatal("nil config")
		}
		cfg.Explain(cfg.Clusters, ExplainOptions{})
	})
}
