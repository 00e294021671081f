package explain

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/fixtures/fuzzing"
)

// FuzzExplain feeds arbitrary bytes to the loader and explain: whatever the
// input, lbctl must return problems, never panic. Seeds are the report
// fixtures (localities, hashing, subsets, gRPC); config's FuzzLoad seeds
// the loader with the broken ones.
func FuzzExplain(f *testing.F) {
	fuzzing.AddFixtures(f, "../../fixtures/locality/*.yaml", "../../fixtures/hash/*.yaml", "../../fixtures/subset/*.yaml", "../../fixtures/grpc/*.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := fuzzing.Load(t, data)
		Build(cfg, cfg.Clusters, model.Options{})
	})
}
