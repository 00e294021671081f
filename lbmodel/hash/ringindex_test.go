package hash

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// Pick and Lookup must give exactly the first point >= h (wrapping), as
// Ring::chooseHost does, whatever the index layout: two points a word (few
// hosts), one (more hosts), none (host indexes too wide), crowded buckets,
// duplicate hashes, and hashes at every bucket's edges and next to every
// point (where the kept bits of the split tie).
func TestRingIndexPicksFirstGreaterOrEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	layouts := []int32{0, 1, 15, 1000, 8191, 8192, 1 << 16, 1 << 20, 1<<31 - 1}
	for trial := range 400 {
		n := 1 + rng.IntN(40)
		if trial%2 == 1 {
			n = 1 + rng.IntN(4000)
		}
		maxHost := layouts[trial%len(layouts)]
		hashes := make([]uint64, n)
		hosts := make([]int32, n)
		for i := range hashes {
			hashes[i] = rng.Uint64() >> (rng.IntN(4) * 20) // some crowd the low buckets
			if trial%3 == 0 && i > 0 {
				hashes[i] = hashes[rng.IntN(i)] // duplicates
			}
			hosts[i] = int32(rng.Int64N(int64(maxHost) + 1))
		}
		hosts[0] = maxHost
		slices.Sort(hashes)
		r := &Ring{Hashes: hashes, EntryHosts: hosts}
		r.Index()
		probes := []uint64{0, 1, math.MaxUint64}
		for _, h := range hashes {
			probes = append(probes, h, h-1, h+1, h-1<<20, h+1<<20)
		}
		if m := r.index.m; m > 0 && m < 1<<14 {
			for b := range m {
				q, rem := bits.Div64(b, 0, m) // first hash of bucket b
				if rem != 0 {
					q++
				}
				probes = append(probes, q, q-1)
			}
		}
		for range 2000 {
			probes = append(probes, rng.Uint64())
		}
		for _, h := range probes {
			want := sort0(hashes, h)
			if got, _ := r.Lookup(h, 0); got != want {
				t.Fatalf("trial %d (n=%d, max host %d) h=%d: Lookup %d, want %d", trial, n, maxHost, h, got, want)
			}
			if got, _ := r.Pick(h, 0); got != int(hosts[want]) {
				t.Fatalf("trial %d (n=%d, max host %d) h=%d: Pick %d, want host %d of point %d", trial, n, maxHost, h, got, hosts[want], want)
			}
			a := uint32(1 + rng.IntN(5))
			if got, _ := r.Pick(h, a); got != int(hosts[(want+int(a))%n]) {
				t.Fatalf("trial %d h=%d attempt %d: Pick %d", trial, h, a, got)
			}
		}
	}
}

// sort0 is the first index with hashes[i] >= h, 0 past the end.
func sort0(hashes []uint64, h uint64) int {
	for i, x := range hashes {
		if x >= h {
			return i
		}
	}
	return 0
}

// Which layout each host width gets, and that no index is built when host
// indexes do not fit (Lookup then binary-searches).
func TestRingIndexLayouts(t *testing.T) {
	for _, c := range []struct{ hb, k, sb int }{{1, 2, 30}, {10, 2, 16}, {13, 2, 12}, {14, 1, 35}, {2, 2, 28}, {25, 1, 13}, {26, 0, 0}} {
		if k, sb := wordLayout(c.hb); k != c.k || sb != c.sb {
			t.Errorf("hosts of %d bits: %d points of %d-bit splits, want %d of %d", c.hb, k, sb, c.k, c.sb)
		}
	}
	r := &Ring{Hashes: []uint64{5, 9}, EntryHosts: []int32{1 << 30, 0}}
	r.Index()
	if len(r.index.words) != 0 {
		t.Error("30-bit host indexes fit no word")
	}
	if h, _ := r.Pick(6, 0); h != 0 {
		t.Errorf("Pick without an index: %d", h)
	}
	var empty Ring
	if _, ok := empty.Pick(1, 0); ok {
		t.Error("an empty ring picks nothing")
	}
}

// The ring's keys "key_0", "key_1", ... are counted up in place.
func TestIncDecimalMatchesFormat(t *testing.T) {
	buf := []byte("10.0.0.1:80_0")
	for n := 1; n <= 100500; n++ {
		buf = incDecimal(buf, len("10.0.0.1:80_"))
		if want := "10.0.0.1:80_" + strconv.Itoa(n); string(buf) != want {
			t.Fatalf("%q, want %q", buf, want)
		}
	}
}
