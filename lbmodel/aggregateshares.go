package lbmodel

import "fmt"

// AggregateChildInput is one entry of an aggregate cluster's list, with the
// child cluster's own input (used when Kind is ChildPresent).
type AggregateChildInput struct {
	Name    string
	Kind    ChildKind
	Cluster ClusterInput
}

// ChildShares is one distinct child cluster's part of an aggregate.
type ChildShares struct {
	Name string
	// Hosts is each of the child's hosts' fraction of the aggregate's
	// traffic, parallel to the child's ClusterInput.Hosts.
	Hosts []float64
	// LevelPanic is the child's own per-priority panic flag, which decides
	// whether a chosen child level uses all its hosts (priority.md §7.3).
	LevelPanic []bool
}

// AggregateShares is the outcome of ComputeAggregateShares.
type AggregateShares struct {
	Load     AggregateLoad
	Children []ChildShares // distinct present children, first-occurrence order
	NoHost   float64
}

// ComputeAggregateShares runs the aggregate's priority arithmetic over the
// linearized levels (ComputeAggregate), then, for each linearized level's
// healthy and degraded load, the owning child's own load balancer forced to
// that child priority (AggregateLoadBalancerContext::determinePriorityLoad;
// the child draws its own hash, so Random is not conditioned by it): the
// child's panic flag, locality weighting, zone routing and host policy
// all apply as in the child itself. A RING_HASH or MAGLEV child is not
// forced: ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost picks
// the priority from its own per-priority load with the request's hash (or
// a random one), never asking the context, so the traffic the aggregate
// sends it spreads as the child's own shares do. threshold is the
// aggregate's own.
func ComputeAggregateShares(children []AggregateChildInput, threshold int) (AggregateShares, error) {
	ac := make([]AggregateChild, len(children))
	models := map[string]*preparedCluster{}
	var out AggregateShares
	index := map[string]int{}
	for i, c := range children {
		ac[i] = AggregateChild{Name: c.Name, Kind: c.Kind}
		if c.Kind != ChildPresent {
			continue
		}
		if _, ok := models[c.Name]; ok {
			continue
		}
		m, err := prepareCluster(c.Cluster)
		if err != nil {
			return AggregateShares{}, fmt.Errorf("child %q: %w", c.Name, err)
		}
		models[c.Name] = m
		index[c.Name] = len(out.Children)
		cs := ChildShares{Name: c.Name, Hosts: make([]float64, len(c.Cluster.Hosts))}
		for _, l := range m.load.Levels {
			cs.LevelPanic = append(cs.LevelPanic, l.Panic)
		}
		out.Children = append(out.Children, cs)
	}
	for i, c := range children {
		if m, ok := models[c.Name]; ok && c.Kind == ChildPresent {
			ac[i].Levels = m.levels
		}
	}
	out.Load = ComputeAggregate(ac, threshold)
	own := map[string]Shares{} // hashing children's unforced shares
	for _, c := range children {
		if _, done := own[c.Name]; !done && c.Kind == ChildPresent && c.Cluster.LB.Policy == PolicyPrecomputed {
			sh, err := models[c.Name].shares()
			if err != nil {
				return AggregateShares{}, fmt.Errorf("child %q: %w", c.Name, err)
			}
			own[c.Name] = sh
		}
	}
	add := func(l LinearLevel, degraded bool, w float64) error {
		if w == 0 {
			return nil
		}
		if sh, ok := own[l.Cluster]; ok {
			hs := out.Children[index[l.Cluster]].Hosts
			for i, x := range sh.Hosts {
				hs[i] += w * x
			}
			out.NoHost += w * sh.NoHost
			return nil
		}
		m := models[l.Cluster]
		d, nh, err := m.sourceDist(l.Priority, degraded, FullBucket)
		if err != nil {
			return err
		}
		hs := out.Children[index[l.Cluster]].Hosts
		for i, x := range d {
			hs[i] += w * x
		}
		out.NoHost += w * nh
		return nil
	}
	if len(out.Load.Levels) == 0 {
		out.NoHost = 1
		return out, nil
	}
	if out.Load.Load.Unassigned {
		return out, add(out.Load.Levels[0], false, 1)
	}
	for i, l := range out.Load.Levels {
		ll := out.Load.Load.Levels[i]
		if err := add(l, false, float64(ll.HealthyLoad)/100); err != nil {
			return AggregateShares{}, err
		}
		if err := add(l, true, float64(ll.DegradedLoad)/100); err != nil {
			return AggregateShares{}, err
		}
	}
	return out, nil
}

// ForcedPriorityShares is c's hosts' shares when the caller forces its
// priority load to all-healthy (or all-degraded) at priority p, as an
// aggregate does to a child (AggregateLoadBalancerContext::
// determinePriorityLoad): the child's own panic, locality and host policy
// over that one host set. A priority with no hosts yields no host
// (the child's chooseHostOnce finds an empty source and returns nullptr).
func ForcedPriorityShares(c ClusterInput, p int, degraded bool) ([]float64, float64, error) {
	m, err := prepareCluster(c)
	if err != nil {
		return nil, 0, err
	}
	return m.sourceDist(p, degraded, FullBucket)
}
