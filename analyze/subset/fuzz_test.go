package subset

import (
	"testing"

	"github.com/lbctl/lbctl/fixtures/fuzzing"
)

// FuzzSubset feeds arbitrary bytes to the loader and the subset report of
// every cluster, with and without criteria: problems or errors, never a
// panic. Seeds: the subset fixtures, and testdata/fuzz.
func FuzzSubset(f *testing.F) {
	fuzzing.AddFixtures(f, "../../fixtures/subset/*.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := fuzzing.Load(t, data)
		for i, cl := range cfg.Clusters {
			if i == 4 {
				break
			}
			Build(cfg, cl, SubsetOptions{})
			Build(cfg, cl, SubsetOptions{Match: map[string]any{"version": "v1", "stage": []any{"a", 1.0}}})
		}
	})
}
