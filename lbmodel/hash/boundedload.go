package hash

import "math"

// BoundedLoadSlots is the per-host cap of hash_balance_factor (bounded
// load) in ThreadAwareLoadBalancerBase::BoundedLoadHashingLoadBalancer::
// hostOverloadFactor (thread_aware_lb_impl.cc): with A requests active in
// the cluster, total = ((A+1)·factor + 99)/100 in uint32 arithmetic (it
// wraps as Envoy's does), and a host of normalized weight w may hold
// max(1, ceil(total·w)) requests. A host with more active requests than
// its slots is overloaded and the lookup moves on along the ring/table.
func BoundedLoadSlots(overallActive uint32, balanceFactor uint32, normalizedWeight float64) uint32 {
	total := ((overallActive+1)*balanceFactor + 99) / 100
	return max(uint32(math.Ceil(float64(total)*normalizedWeight)), 1)
}

// BoundedLoadCaps is BoundedLoadSlots for every host of a normalized
// vector (see NormalizeWeights), in its order.
func BoundedLoadCaps(nw NormalizedWeights, overallActive, balanceFactor uint32) []uint32 {
	out := make([]uint32, len(nw.Hosts))
	for i, h := range nw.Hosts {
		out[i] = BoundedLoadSlots(overallActive, balanceFactor, h.Weight)
	}
	return out
}

// BoundedLoadOverloaded is hostOverloadFactor > 1: rq_active above slots.
func BoundedLoadOverloaded(hostActive, slots uint32) bool { return hostActive > slots }

// ShareImbalance is the max/min ratio of share ÷ expected over the hosts
// with a positive expected share, counting apart the starved ones (share
// 0, e.g. no ring entry or table slot) so that the ratio stays finite: it
// is taken over the hosts that receive traffic, and 0 when fewer than two
// do. shares and expected are parallel.
func ShareImbalance(shares []HostShare, expected []float64) (ratio float64, starved int) {
	lo, hi, n := math.Inf(1), 0.0, 0
	for i, s := range shares {
		if i >= len(expected) || !(expected[i] > 0) {
			continue
		}
		if s.Share == 0 {
			starved++
			continue
		}
		q := s.Share / expected[i]
		lo, hi = min(lo, q), max(hi, q)
		n++
	}
	if n < 2 {
		return 0, starved
	}
	return hi / lo, starved
}
