package hash

import (
	"math"
	"math/bits"
)

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
	return maglevCountsBy(weights, maxW, n, true)
}

// maglevCountsBy is maglevCounts, finding the filling iteration by
// bisection (fillAt) where it can when bisect is set.
func maglevCountsBy(weights []float64, maxW float64, n uint64, bisect bool) []uint64 {
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
	if bisect && fillAt(gs, maxW, n) {
		return finish(counts, of, gs, n)
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
			return finish(counts, of, gs, n)
		}
		filled += claiming
	}
}

// group is the entries of one weight in maglevCounts: their claims so far
// and whether they claimed in the current iteration.
type group struct {
	w, target    float64
	size, claims uint64
	now          bool
}

// finish gives each entry its group's claims at the iteration that fills
// the table, whose claimants are served in fill order until n is reached.
func finish(counts []uint64, of []int32, gs []group, n uint64) []uint64 {
	filled := uint64(0)
	for _, g := range gs {
		filled += g.size * g.claims
	}
	over := filled - n // claimants of the last iteration left without a slot
	for i := len(counts) - 1; i >= 0; i-- {
		g := &gs[of[i]]
		counts[i] = g.claims
		if g.now && over > 0 {
			counts[i]--
			over--
		}
	}
	return counts
}

// fillAt sets every group's claims and now at the iteration that fills
// the table without running the iterations, when the loop's arithmetic
// allows it: when k·maxW is exact for every claim count k, target_weight_
// (a running sum of maxW) is k·maxW, so after iteration t a group has
// had floor(fl(t·w)/maxW)+1 claims due and made min(that, t) of them: one
// claim an iteration, which holds the max group to t and never binds a
// lighter one provided fl(t·w) grows by at most maxW per iteration (w a
// little below maxW excluded). The filling iteration is
// then found by bisection. False (nothing set) when the arithmetic does
// not allow it; the loop runs instead.
func fillAt(gs []group, maxW float64, n uint64) bool {
	if !(maxW > 0) || maxW > math.MaxFloat64/float64(n+2) { // (n+1)·maxW must stay finite
		return false
	}
	// k·maxW exact for k ≤ n+1: the significand of maxW and k fit 53 bits.
	_, exp := math.Frexp(maxW)
	mant := uint64(math.Ldexp(maxW, 53-exp)) // maxW = mant·2^(exp-53), mant < 2^53
	sig := 53 - bits.TrailingZeros64(mant)
	if sig+bits.Len64(n+1) > 53 || n+1 >= 1<<32 {
		return false
	}
	// fl(t·w) - fl((t-1)·w) ≤ w(1 + 2^-52·t) ≤ maxW for t ≤ n.
	slack := 1 + math.Ldexp(1, bits.Len64(n)-51)
	for _, g := range gs {
		if !(g.w >= 0) || (g.w != maxW && g.w*slack > maxW) {
			return false
		}
	}
	claimed := func(w float64, t uint64) uint64 { // claims after iteration t
		if t == 0 {
			return 0
		}
		x := float64(t) * w // as the loop computes it (t < 2^32 is exact)
		k := uint64(x / maxW)
		for k > 0 && float64(k)*maxW > x {
			k--
		}
		for float64(k+1)*maxW <= x {
			k++
		}
		return min(k+1, t) // one claim an iteration: the max group claims t times
	}
	total := func(t uint64) uint64 {
		s := uint64(0)
		for _, g := range gs {
			s += g.size * claimed(g.w, t)
		}
		return s
	}
	// The max group claims every iteration, so total(n) ≥ n.
	lo, hi := uint64(1), n // total(hi) >= n
	for lo < hi {
		mid := lo + (hi-lo)/2
		if total(mid) >= n {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	for i := range gs {
		g := &gs[i]
		before := claimed(g.w, lo-1)
		g.claims = claimed(g.w, lo)
		g.now = g.claims > before
		g.target = float64(g.claims) * maxW
	}
	return true
}
