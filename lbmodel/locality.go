package lbmodel

import "cmp"

// LocalityGroup is one locality of one priority, as HostsPerLocality holds
// it. Host lists are indices into the host slice the group was built from,
// in input order. Healthy, Degraded and Excluded are disjoint as in
// LevelsFromHosts (a draining host is excluded, not counted unhealthy twice).
type LocalityGroup struct {
	Locality Locality
	// Weight is the LocalityLbEndpoints load_balancing_weight, or 0 when it
	// is unset or the endpoint group has no locality field
	// (PriorityStateManager::initializePriorityFor; EdsTest.EndpointLocalityWeights).
	Weight                             uint32
	Hosts, Healthy, Degraded, Excluded []int
}

// Localities is one priority's hosts grouped by locality.
type Localities struct {
	Groups []LocalityGroup
	// HasLocal: Groups[0] is the node's own locality
	// (HostsPerLocality::hasLocalLocality).
	HasLocal bool
}

// localityLess is LocalityLess (upstream_impl.h): byte-wise lexicographic on
// (region, zone, sub_zone).
func localityLess(a, b Locality) int {
	if c := cmp.Compare(a.Region, b.Region); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Zone, b.Zone); c != 0 {
		return c
	}
	return cmp.Compare(a.SubZone, b.SubZone)
}

// GroupLocalities groups the hosts of one priority as
// PriorityStateManager::updateClusterPrioritySet does: the node's locality
// first when this priority has a host there (and node is known), then every
// other locality with at least one host in lexicographic order. A
// locality's weight is the last non-zero LocalityWeight among its hosts in
// input order (Envoy's per-priority map keeps the last set weight); the
// caller leaves LocalityWeight 0 for a group without a locality field.
func GroupLocalities(hosts []Host, priority int, node Locality, nodeKnown bool) Localities {
	index := map[Locality]int{}
	var groups []LocalityGroup
	for i, h := range hosts {
		if h.Priority != priority {
			continue
		}
		gi, ok := index[h.Locality]
		if !ok {
			gi = len(groups)
			index[h.Locality] = gi
			groups = append(groups, LocalityGroup{Locality: h.Locality})
		}
		g := &groups[gi]
		if h.LocalityWeight != 0 {
			g.Weight = h.LocalityWeight
		}
		g.Hosts = append(g.Hosts, i)
		switch {
		case h.Status.Excluded():
			g.Excluded = append(g.Excluded, i)
		case h.Health() == Healthy:
			g.Healthy = append(g.Healthy, i)
		case h.Health() == Degraded:
			g.Degraded = append(g.Degraded, i)
		}
	}
	out := Localities{}
	sortGroups(groups, func(a, b LocalityGroup) int {
		al := nodeKnown && a.Locality == node
		bl := nodeKnown && b.Locality == node
		switch {
		case al && !bl:
			return -1
		case bl && !al:
			return 1
		}
		return localityLess(a.Locality, b.Locality)
	})
	if len(groups) > 0 && nodeKnown && groups[0].Locality == node {
		out.HasLocal = true
	}
	out.Groups = groups
	return out
}

func sortGroups(g []LocalityGroup, less func(a, b LocalityGroup) int) {
	// insertion sort: locality counts are small and this keeps it stable
	for i := 1; i < len(g); i++ {
		for j := i; j > 0 && less(g[j-1], g[j]) > 0; j-- {
			g[j-1], g[j] = g[j], g[j-1]
		}
	}
}

// EffectiveLocalityWeight is LocalityWrr::effectiveLocalityWeight
// (source/extensions/load_balancing_policies/common/locality_wrr.cc), in
// float64 and in the same order: weight · min(1, opf/100 · eligible/(hosts−excluded)),
// 0 when every host is excluded. Host counts are used even under
// weighted_priority_health.
func EffectiveLocalityWeight(weight uint32, eligible, hosts, excluded int, opf uint32) float64 {
	n := hosts - excluded
	if n <= 0 {
		return 0
	}
	ratio := 1.0 * float64(eligible) / float64(n)
	return float64(weight) * min(1.0, (float64(opf)/100.0)*ratio)
}

// LocalityWeights returns the effective weights of one priority's localities
// for the healthy scheduler (degraded=false) or the degraded one, and
// whether Envoy builds that scheduler at all (LocalityWrr::rebuildLocalityScheduler):
// only when the priority has an eligible host and some effective weight is > 0.
func LocalityWeights(l Localities, opf uint32, degraded bool) (ew []float64, scheduler bool) {
	ew = make([]float64, len(l.Groups))
	eligibleTotal := 0
	for i, g := range l.Groups {
		e := len(g.Healthy)
		if degraded {
			e = len(g.Degraded)
		}
		eligibleTotal += e
		ew[i] = EffectiveLocalityWeight(g.Weight, e, len(g.Hosts), len(g.Excluded), opf)
	}
	if eligibleTotal == 0 {
		return ew, false
	}
	for _, w := range ew {
		if w > 0 {
			return ew, true
		}
	}
	return ew, false
}

// LocalityPickShares is the long-run share of each locality under the
// locality EDF: ew_i / Σ ew (zero when Σ ew is 0).
func LocalityPickShares(ew []float64) []float64 {
	sum := 0.0
	for _, w := range ew {
		sum += w
	}
	out := make([]float64, len(ew))
	if sum <= 0 {
		return out
	}
	for i, w := range ew {
		out[i] = w / sum
	}
	return out
}

// NewLocalityEDF builds the locality scheduler Envoy builds: only the
// localities with ew > 0, in locality order, with seed pre-picks. The
// returned slice maps scheduler entries back to locality indices. It
// returns nil when Envoy builds no scheduler.
func NewLocalityEDF(ew []float64, seed uint32) (*EDF, []int, error) {
	var w []float64
	var idx []int
	for i, x := range ew {
		if x > 0 {
			w = append(w, x)
			idx = append(idx, i)
		}
	}
	if len(w) == 0 {
		return nil, nil, nil
	}
	e, err := NewEDF(w, seed)
	return e, idx, err
}
