package lbmodel

import "math"

// maglevCounts is how many slots each entry (weights in fill order, i.e.
// sorted by key) claims in OriginalMaglevTable::constructImplementationInternals
// and CompactMaglevTable's fill (maglev_lb.cc), without a table: whether an
// entry claims in an iteration depends only on iteration*weight_ against its
// target_weight_ (which grows by max_normalized_weight per claim), never on
// the permutation, which only decides which slot it takes. So entries of
// bit-identical weight claim in the same iterations, and the same loop with
// the same double arithmetic runs once per distinct weight; the iteration
// that fills the table serves its claimants in fill order. nil when no
// weight equals maxW (a hand-built vector), which the caller fills plainly.
func maglevCounts(weights []float64, maxW float64, n uint64) []uint64 {
	type group struct {
		w, target    float64
		size, claims uint64
		now          bool // claimed in the current iteration
	}
	var gs []group
	of := make([]int32, len(weights)) // each entry's group
	seen := make(map[uint64]int32, 4)
	hasMax := false
	for i, w := range weights {
		hasMax = hasMax || w == maxW
		g, ok := seen[math.Float64bits(w)]
		if !ok {
			g = int32(len(gs))
			seen[math.Float64bits(w)] = g
			gs = append(gs, group{w: w})
		}
		gs[g].size++
		of[i] = g
	}
	if !hasMax {
		return nil
	}
	counts := make([]uint64, len(weights))
	if len(gs) == 1 {
		// Equal weights: every entry claims in every iteration (iteration*w
		// >= the float sum of iteration-1 w's while iteration^2 * 2^-53 < 1,
		// and iterations <= table size <= 5,000,011), so n slots go round
		// robin in fill order.
		q, r := n/uint64(len(weights)), n%uint64(len(weights))
		for i := range counts {
			counts[i] = q
			if uint64(i) < r {
				counts[i]++
			}
		}
		return counts
	}
	filled := uint64(0)
	for iteration := uint32(1); ; iteration++ {
		claiming := uint64(0)
		for i := range gs {
			g := &gs[i]
			g.now = float64(iteration)*g.w >= g.target
			if g.now {
				g.target += maxW
				g.claims++
				claiming += g.size
			}
		}
		if filled+claiming >= n {
			left := n - filled // this iteration's first claimants get these
			for i := range counts {
				g := &gs[of[i]]
				counts[i] = g.claims
				if g.now {
					if left > 0 {
						left--
					} else {
						counts[i]--
					}
				}
			}
			return counts
		}
		filled += claiming
	}
}
