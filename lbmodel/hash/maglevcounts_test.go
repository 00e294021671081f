package hash

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// checkCountsMatchFull holds the counts-only fill (maglevCounts) to the
// full table build: same slots per host, gauges and shares.
func checkCountsMatchFull(t *testing.T, name string, nw NormalizedWeights, size uint64) {
	t.Helper()
	cfg := MaglevConfig{TableSize: size}
	full, err := BuildMaglev(nw, cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	counts, err := BuildMaglevCounts(nw, cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if counts.Slots != nil || !slices.Equal(full.Counts, counts.Counts) ||
		full.MinEntriesPerHost != counts.MinEntriesPerHost || full.MaxEntriesPerHost != counts.MaxEntriesPerHost ||
		!slices.Equal(full.Shares(), counts.Shares()) {
		t.Fatalf("%s: counts-only %v (min %d max %d), full table %v (min %d max %d)", name,
			counts.Counts, counts.MinEntriesPerHost, counts.MaxEntriesPerHost,
			full.Counts, full.MinEntriesPerHost, full.MaxEntriesPerHost)
	}
}

// floatNW is a normalized vector with the given raw weights scaled to sum 1
// (as locality weighting leaves them: no integer ratios).
func floatNW(raw []float64) NormalizedWeights {
	sum := 0.0
	for _, w := range raw {
		sum += w
	}
	nw := NormalizedWeights{Min: 2}
	for i, w := range raw {
		w /= sum
		nw.Hosts = append(nw.Hosts, WeightedHost{Host: &lbmodel.Host{Address: fmt.Sprintf("10.0.%d.%d:80", i>>8, i&255), Weight: 1}, Weight: w})
		nw.Min, nw.Max = min(nw.Min, w), max(nw.Max, w)
	}
	return nw
}

func TestMaglevCountsWithoutTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	sizes := []uint64{2, 3, 5, 7, 13, 251, 997, 65537}
	// Equal weights: the closed form, every host count and table size.
	for _, h := range []int{1, 2, 3, 4, 7, 64, 100, 1000} {
		for _, size := range sizes {
			nw := mustNormalize(t, benchHosts(h), NormalizeOptions{})
			checkCountsMatchFull(t, fmt.Sprintf("equal h=%d size=%d", h, size), nw, size)
		}
	}
	for trial := range 300 {
		h := 1 + rng.IntN(60)
		if trial%10 == 0 {
			h = 200 + rng.IntN(800)
		}
		size := sizes[rng.IntN(len(sizes))]
		raw := make([]float64, h)
		kind := trial % 5
		for i := range raw {
			switch kind {
			case 0: // small integer weights
				raw[i] = float64(1 + rng.IntN(5))
			case 1: // wide integer weights
				raw[i] = float64(1 + rng.IntN(100000))
			case 2: // locality-style fractions
				raw[i] = rng.Float64() + 1e-3
			case 3: // extreme ratios: one heavy host
				raw[i] = 1
				if i == 0 {
					raw[i] = []float64{1e3, 1e6, 1e9}[rng.IntN(3)]
				}
			case 4: // two weights, many of each
				raw[i] = []float64{1, 3}[rng.IntN(2)]
			}
		}
		if kind == 3 && h > 1 {
			rng.Shuffle(h, func(i, j int) { raw[i], raw[j] = raw[j], raw[i] })
		}
		checkCountsMatchFull(t, fmt.Sprintf("trial %d kind %d h=%d size=%d", trial, kind, h, size), floatNW(raw), size)
	}
	// Integer host weights through NormalizeWeights, extremes included.
	hosts := benchHosts(5)
	for i, w := range []uint32{1, 1 << 31, 7, 1, 1 << 30} {
		hosts[i].Weight = w
	}
	checkCountsMatchFull(t, "uint32 extremes", mustNormalize(t, hosts, NormalizeOptions{}), 65537)
	// A Max no weight reaches (hand-built) takes the plain fill.
	nw := floatNW([]float64{1, 2, 3})
	nw.Max *= 1.5
	checkCountsMatchFull(t, "max above every weight", nw, 251)
}

// The closed form relies on every host claiming in every iteration up to
// the largest table size (5,000,011 slots).
func TestMaglevCountsLargestTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 5M-slot tables")
	}
	checkCountsMatchFull(t, "equal h=3", mustNormalize(t, benchHosts(3), NormalizeOptions{}), MaxMaglevTableSize)
	checkCountsMatchFull(t, "weights 1,2,3", floatNW([]float64{1, 2, 3}), MaxMaglevTableSize)
}

// The Maglev build reads key warnings off its sorted order: the same
// warnings, in the same order, as keyWarnings.
func TestKeyWarningsSortedMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := range 300 {
		keys := make([]string, rng.IntN(30))
		for i := range keys {
			keys[i] = []string{"", "a", "b", "c", "10.0.0.1:80", "z"}[rng.IntN(6)]
			if trial%3 == 0 {
				keys[i] = fmt.Sprint(rng.IntN(1000))
			}
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
		if got, want := keyWarningsSorted(keys, order), keyWarnings(keys); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, want %q", keys, got, want)
		}
	}
}

// The ring groups keys by their "_0" point's hash: the same warnings as
// keyWarnings, also when distinct keys share a hash (forced here by a
// hash that keeps a few bits).
func TestKeyWarningsHashedMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for trial := range 200 {
		keys := make([]string, 200+rng.IntN(600))
		for i := range keys {
			keys[i] = fmt.Sprintf("10.0.%d.%d:80", rng.IntN(3), rng.IntN(256))
			if rng.IntN(50) == 0 {
				keys[i] = ""
			}
		}
		hashes := make([]uint64, len(keys))
		for i, k := range keys {
			hashes[i] = XXHash64(k + "_0")
			if trial%2 == 1 {
				hashes[i] &= 0xF // collisions between distinct keys
			}
		}
		if got, want := keyWarningsHashed(keys, hashes), keyWarnings(keys); !slices.Equal(got, want) {
			t.Fatalf("trial %d: %q, want %q", trial, got, want)
		}
	}
}

// TestMaglevCountsBisection: finding the filling iteration by bisection
// gives the loop's counts, on vectors where it applies (the largest
// normalized weight a dyadic fraction: k·max exact) and where it must
// step aside, up to the largest table.
func TestMaglevCountsBisection(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	sizes := []uint64{2, 3, 7, 13, 251, 997, 65537, 131071}
	applied := 0
	for trial := range 3000 {
		h := 2 + rng.IntN(12)
		raw := make([]float64, h)
		for i := range raw {
			raw[i] = float64(1 + rng.IntN(8))
		}
		switch trial % 4 {
		case 1: // weights summing to a power of two: every weight dyadic
			raw = raw[:0]
			for left := 1 << (3 + rng.IntN(6)); left > 0; {
				w := min(left, 1+rng.IntN(9))
				raw = append(raw, float64(w))
				left -= w
			}
		case 2: // a weight one ulp below the largest
			raw = append(raw, 0)
		}
		nw := floatNW(raw)
		if trial%4 == 2 {
			nw.Hosts[len(raw)-1].Weight = math.Nextafter(nw.Max, 0)
		}
		w := make([]float64, len(nw.Hosts))
		for i, x := range nw.Hosts {
			w[i] = x.Weight
		}
		n := sizes[rng.IntN(len(sizes))]
		if trial%500 == 0 {
			n = MaxMaglevTableSize
		}
		fast, slow := maglevCountsBy(w, nw.Max, n, true), maglevCountsBy(w, nw.Max, n, false)
		if !slices.Equal(fast, slow) {
			t.Fatalf("weights %v n=%d: bisection %v, loop %v", w, n, fast, slow)
		}
		gs := make([]group, 0, len(w))
		for _, x := range w {
			gs = append(gs, group{w: x, size: 1})
		}
		if fillAt(gs, nw.Max, n) {
			applied++
		}
	}
	// A largest weight whose multiples overflow takes the loop.
	huge := []float64{0x1p1023, 0x1p1022}
	if fast, slow := maglevCountsBy(huge, 0x1p1023, 5, true), maglevCountsBy(huge, 0x1p1023, 5, false); !slices.Equal(fast, slow) {
		t.Errorf("huge weights: bisection %v, loop %v", fast, slow)
	}
	if applied < 600 {
		t.Errorf("bisection applied to %d of 3000 vectors; the test does not exercise it", applied)
	}
}

// keyWarnings is the reference for the warning builders: a map of the keys.
func keyWarnings(keys []string) []string {
	var w []string
	seen := make(map[string]int, len(keys))
	for _, k := range keys {
		seen[k]++
	}
	if seen[""] > 0 {
		w = append(w, emptyKeyWarning)
	}
	var dups []string
	for k, n := range seen {
		if n > 1 && k != "" {
			dups = append(dups, k)
		}
	}
	slices.Sort(dups)
	for _, k := range dups {
		w = append(w, fmt.Sprintf(sharedKeyWarning, k, seen[k]))
	}
	return w
}
