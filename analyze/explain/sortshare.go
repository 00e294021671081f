package explain

import (
	"cmp"
	"math"
	"slices"
)

// shareKey is a host's place in hostReports' order: its share (has: known)
// and its index before sorting.
type shareKey struct {
	share float64
	has   bool
	i     int32
}

// sortByShare sorts keys by share, largest first, unknown shares last,
// stably. Without NaN the order is total once ties go by index, and any
// sort gives the stable order; with NaN (no strict weak order) it is
// slices.SortStableFunc, which runs sort.SliceStable's very steps, so the
// order is the one the reports had when sorted whole.
func sortByShare(keys []shareKey) {
	for _, k := range keys {
		if k.has && math.IsNaN(k.share) {
			slices.SortStableFunc(keys, func(a, b shareKey) int {
				if shareLess(a.has, a.share, b.has, b.share) {
					return -1
				}
				return 1 // only "< 0" is ever tested
			})
			return
		}
	}
	if len(keys) >= radixMin {
		radixSortByShare(keys)
		return
	}
	slices.SortFunc(keys, func(a, b shareKey) int {
		switch {
		case shareLess(a.has, a.share, b.has, b.share):
			return -1
		case shareLess(b.has, b.share, a.has, a.share):
			return 1
		}
		return cmp.Compare(a.i, b.i)
	})
}

// shareLess: a known share before an unknown one, then the larger first.
func shareLess(aHas bool, a float64, bHas bool, b float64) bool {
	if !aHas || !bHas {
		return aHas && !bHas
	}
	return a > b
}

// radixMin is the size from which radixSortByShare beats pdqsort with a
// comparison closure (100k ring shares: 8 ms of comparisons).
const radixMin = 256

// radixSortByShare is sortByShare without NaN, as a stable LSD radix sort
// of one 64-bit key per host: unknown shares get the largest key, a known
// share the complement of its order-preserving bits (larger first; -0 as
// 0, which compares equal). Stability keeps index order among ties, as the
// comparison sort's index tie-break does.
func radixSortByShare(keys []shareKey) {
	type item struct {
		k   uint64
		pos int32
	}
	a := make([]item, len(keys))
	for p, key := range keys {
		k := uint64(math.MaxUint64)
		if key.has {
			k = ^orderedBits(key.share + 0) // + 0 turns -0 into 0
		}
		a[p] = item{k, int32(p)}
	}
	b := make([]item, len(keys))
	var count [256]int
	for shift := 0; shift < 64; shift += 8 {
		count = [256]int{}
		for _, x := range a {
			count[byte(x.k>>shift)]++
		}
		if count[byte(a[0].k>>shift)] == len(a) { // every key has this byte
			continue
		}
		at := 0
		for d := range count {
			count[d], at = at, at+count[d]
		}
		for _, x := range a {
			d := byte(x.k >> shift)
			b[count[d]] = x
			count[d]++
		}
		a, b = b, a
	}
	out := make([]shareKey, len(keys))
	for j, x := range a {
		out[j] = keys[x.pos]
	}
	copy(keys, out)
}

// orderedBits maps a non-NaN float64 to a uint64 in the same order.
func orderedBits(f float64) uint64 {
	u := math.Float64bits(f)
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}
