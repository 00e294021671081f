package explain

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
)

// FuzzExplain feeds arbitrary bytes to the loader and explain: whatever the
// input, lbctl must return problems, never panic. Seeds are the report
// fixtures (localities, hashing, subsets, gRPC); config's FuzzLoad seeds
// the loader with the broken ones.
func FuzzExplain(f *testing.F) {
	for _, dir := range []string{"locality", "hash", "subset", "grpc"} {
		paths, _ := filepath.Glob(filepath.Join("../../fixtures", dir, "*.yaml"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _ := config.LoadBytes("fuzz.yaml", data, "")
		if cfg == nil {
			t.Fatal("nil config")
		}
		Build(cfg, cfg.Clusters, model.Options{})
	})
}
