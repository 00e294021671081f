package hashing

import (
	"testing"

	"github.com/lbctl/lbctl/fixtures/fuzzing"
)

// FuzzHash feeds arbitrary bytes to the loader and the hash report of every
// cluster (lookups, a request, removal, --dump, both semantics): problems
// or errors, never a panic. Seeds: the hash fixtures, and testdata/fuzz.
func FuzzHash(f *testing.F) {
	fuzzing.AddFixtures(f, "../../fixtures/hash/*.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := fuzzing.Load(t, data)
		for i, cl := range cfg.Clusters {
			if i == 4 {
				break // a few clusters are enough per input
			}
			for _, grpc := range []bool{false, true} {
				Build(cfg, cl, HashOptions{Keys: []string{"user-1"}, Hashes: []uint64{0, 1 << 63},
					Request: &HashRequest{Headers: [][2]string{{"x-user", "a"}}, Cookies: [][2]string{{"session", "b"}}, SourceIP: "10.0.0.9", Path: "/?q=1"},
					Dump:    true, Remove: []string{"10.0.0.1:80"}, GRPC: grpc})
			}
		}
	})
}
