package subset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// FuzzSubset feeds arbitrary bytes to the loader and the subset report of
// every cluster, with and without criteria: problems or errors, never a
// panic. Seeds: the subset fixtures, and testdata/fuzz.
func FuzzSubset(f *testing.F) {
	paths, _ := filepath.Glob("../../fixtures/subset/*.yaml")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _ := config.LoadBytes("fuzz.yaml", data, "")
		if cfg == nil {
			t.Fatal("nil config")
		}
		for i, cl := range cfg.Clusters {
			if i == 4 {
				break
			}
			Build(cfg, cl, SubsetOptions{})
			Build(cfg, cl, SubsetOptions{Match: map[string]any{"version": "v1", "stage": []any{"a", 1.0}}})
		}
	})
}
