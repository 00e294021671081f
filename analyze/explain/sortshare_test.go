package explain

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestSortByShareIsSliceStable: sortByShare gives the order
// sort.SliceStable gave the host reports (ties, unknown shares and NaN
// included), on sizes around its 20-element blocks, with and without NaN.
func TestSortByShareIsSliceStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// math.Copysign(0, -1) compares equal to 0; the radix keys must agree.
	withNaN := []float64{0, 0.25, 0.5, 1.0 / 3, math.Copysign(0, -1), 1e-300, 0.75, 1, math.NaN()}
	for _, n := range []int{0, 1, 2, 19, 20, 21, 39, 40, 41, 100, radixMin - 1, radixMin, 1000, 5000} {
		for try := range 40 {
			vals := withNaN
			if try%2 == 0 {
				vals = withNaN[:len(withNaN)-1] // no NaN: the unstable sort (or radix) with index ties
				if try%4 == 0 {
					vals = nil // distinct shares: every radix byte in play
				}
			}
			keys := make([]shareKey, n)
			for i := range keys {
				keys[i] = shareKey{i: int32(i), has: rng.IntN(5) > 0, share: rng.Float64()}
				if vals != nil {
					keys[i].share = vals[rng.IntN(len(vals))]
				}
			}
			want := append([]shareKey(nil), keys...)
			sort.SliceStable(want, func(i, j int) bool {
				return shareLess(want[i].has, want[i].share, want[j].has, want[j].share)
			})
			sortByShare(keys)
			for i := range keys {
				if keys[i].i != want[i].i {
					t.Fatalf("n=%d: position %d holds host %d, sort.SliceStable put %d there", n, i, keys[i].i, want[i].i)
				}
			}
		}
	}
}
