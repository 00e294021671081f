package hash

import "github.com/lbctl/lbctl/lbmodel"

// EmptyCause says why a hashing level with hosts has no ring entry or
// table slot (NormalizeWeights gave it no host).
type EmptyCause int

const (
	// NotEmpty: some host is in the ring or table.
	NotEmpty EmptyCause = iota
	// EmptyNoHealthy: no healthy host and the level is not in panic.
	EmptyNoHealthy
	// EmptyNoHealthyWeighted: the only healthy hosts are in localities
	// whose load_balancing_weight is 0 or unset.
	EmptyNoHealthyWeighted
	// EmptyLocalityWeights: under locality weighting every locality's
	// weight is 0 or unset; normalizeLocalityWeights returns before
	// adding any host, whatever the health.
	EmptyLocalityWeights
)

// String is the cause in the words explain, hash and lint print.
func (c EmptyCause) String() string {
	switch c {
	case EmptyNoHealthy:
		return "no healthy host, not in panic"
	case EmptyNoHealthyWeighted:
		return "no healthy host in a locality with a load_balancing_weight, not in panic"
	case EmptyLocalityWeights:
		return "no locality has a load_balancing_weight, so Envoy's normalizeLocalityWeights adds no host"
	}
	return ""
}

// LevelEmptyCause is why NormalizeWeights(hosts, opt) yields no host, in
// the order normalizeLocalityWeights (thread_aware_lb_impl.cc) tests:
// the locality weight sum first, then each weighted locality's used hosts.
// A host LB (ROUND_ROBIN, LEAST_REQUEST, RANDOM) differs: with no locality
// weight HostSetImpl builds no locality scheduler and uses every host
// (LocalityWeights' scheduler result), so this is for RING_HASH/MAGLEV.
func LevelEmptyCause(hosts []lbmodel.Host, opt NormalizeOptions) EmptyCause {
	if len(hosts) == 0 {
		return NotEmpty
	}
	used := func(h *lbmodel.Host) bool { return opt.Panic || h.Health() == lbmodel.Healthy }
	if !opt.LocalityWeighted {
		for i := range hosts {
			if used(&hosts[i]) {
				return NotEmpty
			}
		}
		return EmptyNoHealthy
	}
	var lsum uint64
	anyUsed := false
	for _, g := range groupByLocality(hosts, opt.LocalLocality) {
		lsum += uint64(g.weight)
		for i := range g.hosts {
			if used(&g.hosts[i]) {
				if g.weight > 0 {
					return NotEmpty
				}
				anyUsed = true
			}
		}
	}
	switch {
	case lsum == 0:
		return EmptyLocalityWeights
	case anyUsed:
		return EmptyNoHealthyWeighted
	}
	return EmptyNoHealthy
}
