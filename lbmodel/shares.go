package lbmodel

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ClusterInput is everything ClusterShares needs about one cluster.
type ClusterInput struct {
	Hosts []Host
	// OverprovisioningFactor in percent; 0 means Envoy's default 140.
	OverprovisioningFactor uint32
	WeightedPriorityHealth bool
	// PanicThreshold is the effective integer threshold (see PanicThreshold;
	// 0 disables panic, so set 50 for Envoy's default).
	PanicThreshold int
	LB             HostLB
	// LocalityWeighted is locality_weighted_lb_config being set.
	LocalityWeighted bool
	// ZoneAware applies only with HasLocalCluster (and not LocalityWeighted
	// for the localities it picks; see hostSourceToUse). FailTrafficOnPanic
	// also governs a panicking upstream priority.
	ZoneAware       ZoneAwareConfig
	HasLocalCluster bool
	LocalCluster    []Host
	NodeLocality    Locality
	HasNodeLocality bool
	// LocalityEDFSeed is the random seed Envoy draws when it builds a
	// locality scheduler; it only matters to simulations.
	LocalityEDFSeed uint32
}

// LocalityShare is one locality of one priority.
type LocalityShare struct {
	Locality                           Locality
	Weight                             uint32
	Hosts, Healthy, Degraded, Excluded int
	// EffectiveWeight feeds the healthy locality scheduler,
	// DegradedEffectiveWeight the degraded one.
	EffectiveWeight, DegradedEffectiveWeight float64
	// Share is the locality's fraction of this priority's healthy traffic
	// (of all its traffic when the priority panics); DegradedShare of its
	// degraded traffic.
	Share, DegradedShare float64
}

// PriorityShares is one priority level's locality view.
type PriorityShares struct {
	Priority   int
	Panic      bool
	HasLocal   bool
	Localities []LocalityShare
	// HealthyScheduler / DegradedScheduler: Envoy built that locality
	// scheduler (locality-weighted only).
	HealthyScheduler, DegradedScheduler bool
	// LocalityFallback: locality weighting is on and the priority has
	// healthy hosts but every effective weight is 0, so traffic spreads over
	// all healthy hosts of the priority, zero-weight localities included.
	LocalityFallback bool
}

// Shares is the outcome of ClusterShares.
type Shares struct {
	Load PriorityLoad
	// Hosts is each input host's fraction of the cluster's traffic.
	Hosts      []float64
	Priorities []PriorityShares
	// Zone is upstream P0's zone-aware state; nil without a local cluster.
	Zone *ZoneRouting
	// LocalClusterPanic: the local cluster is in panic, so zone routing is
	// skipped (or traffic fails with fail_traffic_on_panic).
	LocalClusterPanic bool
	// NoHost is the fraction of traffic for which Envoy selects no host
	// (fail_traffic_on_panic, an empty source, no load assigned...).
	NoHost float64
}

// preparedCluster is a cluster prepared for share computation and simulation.
type preparedCluster struct {
	in         ClusterInput
	opf        uint32
	levels     []Level
	load       PriorityLoad
	locs       []Localities
	ew, dew    [][]float64
	sched      []bool
	dsched     []bool
	zone       *ZoneRouting
	localPanic bool
	// dists memoizes sourceDist: ClusterShares asks for each priority's
	// healthy and degraded source twice (traffic, then the locality view),
	// and a hash policy's shares cost a table walk each time.
	dists map[distKey]sourceDistResult
}

type distKey struct {
	p        int
	degraded bool
	b        Bucket
}

type sourceDistResult struct {
	dist   []float64
	noHost float64
}

func prepareCluster(c ClusterInput) (*preparedCluster, error) {
	for i, h := range c.Hosts {
		if h.Priority < 0 || h.Priority > 128 {
			return nil, fmt.Errorf("host %d: priority %d out of range 0..128", i, h.Priority)
		}
	}
	if c.PanicThreshold < 0 {
		return nil, errors.New("negative panic threshold")
	}
	if c.LB.ActiveRequests != nil && len(c.LB.ActiveRequests) != len(c.Hosts) {
		return nil, errors.New("ActiveRequests is not parallel to Hosts")
	}
	m := &preparedCluster{in: c, opf: c.OverprovisioningFactor}
	if m.opf == 0 {
		m.opf = DefaultOverprovisioningFactor
	}
	m.levels = LevelsFromHosts(c.Hosts, m.opf, c.WeightedPriorityHealth)
	m.load = ComputePriorityLoad(m.levels, min(100, c.PanicThreshold))
	n := len(m.levels)
	m.locs = make([]Localities, n)
	m.ew, m.dew = make([][]float64, n), make([][]float64, n)
	m.sched, m.dsched = make([]bool, n), make([]bool, n)
	for p := range n {
		m.locs[p] = GroupLocalities(c.Hosts, p, c.NodeLocality, c.HasNodeLocality)
		m.ew[p], m.sched[p] = LocalityWeights(m.locs[p], m.opf, false)
		m.dew[p], m.dsched[p] = LocalityWeights(m.locs[p], m.opf, true)
	}
	if c.HasLocalCluster {
		z := ComputeZoneRouting(c.Hosts, c.LocalCluster, c.NodeLocality, c.HasNodeLocality, c.ZoneAware)
		m.zone = &z
		var l Level
		for _, h := range c.LocalCluster {
			l.Hosts++
			switch {
			case h.Status.Excluded():
				l.Excluded++
			case h.Health() == Healthy:
				l.Healthy++
			case h.Health() == Degraded:
				l.Degraded++
			}
		}
		// isHostSetInPanic on the local P0 with the upstream's threshold.
		m.localPanic = l.inPanic(min(100, c.PanicThreshold))
	} else {
		m.zone = &ZoneRouting{Exit: ZoneExitNoLocalCluster}
	}
	return m, nil
}

// hostsOf returns the host indices of priority p (all, healthy or
// degraded) in input order.
func (m *preparedCluster) hostsOf(p int, kind int) []int {
	var out []int
	for _, g := range m.locs[p].Groups {
		out = append(out, groupList(g, kind)...)
	}
	// HostSet::hosts(), healthyHosts() and degradedHosts() keep the
	// configuration order, not the locality order; RandomLoadBalancer's
	// hosts[r % n] depends on it.
	slices.Sort(out)
	return out
}

const (
	kindAll = iota
	kindHealthy
	kindDegraded
)

func groupList(g LocalityGroup, kind int) []int {
	switch kind {
	case kindHealthy:
		return g.Healthy
	case kindDegraded:
		return g.Degraded
	}
	return g.Hosts
}

// addSource adds weight·(policy shares over src) into dist; an empty source
// adds weight to the no-host mass.
func (m *preparedCluster) addSource(dist []float64, noHost *float64, src []int, weight float64, b Bucket) error {
	if weight == 0 {
		return nil
	}
	if len(src) == 0 {
		*noHost += weight
		return nil
	}
	sh, err := m.in.LB.sourceShares(m.in.Hosts, src, b)
	if err != nil {
		return err
	}
	for i, h := range src {
		dist[h] += weight * sh[i]
	}
	return nil
}

// sourceDist is the per-host distribution of a request that chose priority p
// with the given availability, following ZoneAwareLoadBalancerBase::hostSourceToUse.
// b is the range of the priority hash that led here (see RandomSharesGiven).
// The slice returned is shared between callers: read it only.
func (m *preparedCluster) sourceDist(p int, degraded bool, b Bucket) ([]float64, float64, error) {
	k := distKey{p, degraded, b}
	if m.in.LB.Policy != PolicyRandom {
		k.b = FullBucket // only random picks by the priority hash's range
	}
	if m.in.LB.Policy == PolicyPrecomputed && !m.in.LocalityWeighted {
		k.degraded = false // one table per priority serves both (below)
	}
	if r, ok := m.dists[k]; ok {
		return r.dist, r.noHost, nil
	}
	dist, noHost, err := m.computeSourceDist(p, degraded, b)
	if err != nil {
		return nil, 0, err
	}
	if m.dists == nil {
		m.dists = map[distKey]sourceDistResult{}
	}
	m.dists[k] = sourceDistResult{dist, noHost}
	return dist, noHost, nil
}

func (m *preparedCluster) computeSourceDist(p int, degraded bool, b Bucket) ([]float64, float64, error) {
	dist := make([]float64, len(m.in.Hosts))
	noHost := 0.0
	if p >= len(m.levels) {
		return dist, 1, nil
	}
	kind := kindHealthy
	if degraded && m.in.LB.Policy != PolicyPrecomputed {
		kind = kindDegraded
	}
	// Ring hash and Maglev keep one table per priority over its healthy
	// hosts (all hosts in panic) and use it for the priority's degraded
	// load too: ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost
	// takes only choosePriority(...).first, and refresh/normalizeWeights
	// build the table from healthyHosts().
	fail := m.in.ZoneAware.FailTrafficOnPanic
	if m.load.Levels[p].Panic {
		if fail {
			return dist, 1, nil
		}
		return dist, noHost, m.addSource(dist, &noHost, m.hostsOf(p, kindAll), 1, b)
	}
	if m.in.LocalityWeighted {
		ew, ok := m.ew[p], m.sched[p]
		if degraded {
			ew, ok = m.dew[p], m.dsched[p]
		}
		if ok {
			for i, s := range LocalityPickShares(ew) {
				if err := m.addSource(dist, &noHost, groupList(m.locs[p].Groups[i], kind), s, b); err != nil {
					return nil, 0, err
				}
			}
			return dist, noHost, nil
		}
	}
	plain := m.hostsOf(p, kind)
	if p != 0 || m.zone.State == NoLocalityRouting {
		return dist, noHost, m.addSource(dist, &noHost, plain, 1, b)
	}
	r := float64(m.zone.RoutingEnabled) / 100
	if err := m.addSource(dist, &noHost, plain, 1-r, b); err != nil {
		return nil, 0, err
	}
	if m.localPanic {
		if fail {
			return dist, noHost + r, nil
		}
		return dist, noHost, m.addSource(dist, &noHost, plain, r, b)
	}
	for i, s := range m.zone.Shares {
		if err := m.addSource(dist, &noHost, groupList(m.locs[0].Groups[i], kind), r*s, b); err != nil {
			return nil, 0, err
		}
	}
	return dist, noHost, nil
}

// ClusterShares composes priority load, panic, locality weighting or zone
// routing, and the host-level policy into each host's long-run fraction of
// the cluster's traffic (LoadBalancerBase::choosePriority, then
// ZoneAwareLoadBalancerBase::hostSourceToUse, then the policy's pick).
func ClusterShares(c ClusterInput) (Shares, error) {
	m, err := prepareCluster(c)
	if err != nil {
		return Shares{}, err
	}
	return m.shares()
}

// shares is ClusterShares over the prepared cluster, so a caller that
// already prepared it (an aggregate's child) does not prepare it again.
func (m *preparedCluster) shares() (Shares, error) {
	out := Shares{Load: m.load, Hosts: make([]float64, len(m.in.Hosts)), LocalClusterPanic: m.localPanic}
	if m.in.HasLocalCluster {
		out.Zone = m.zone
	}
	add := func(p int, degraded bool, w float64, b Bucket) error {
		if w == 0 {
			return nil
		}
		d, nh, err := m.sourceDist(p, degraded, b)
		if err != nil {
			return err
		}
		for i, x := range d {
			out.Hosts[i] += w * x
		}
		out.NoHost += w * nh
		return nil
	}
	if m.load.Unassigned || len(m.levels) == 0 {
		// choosePriority finds no level and falls back to P0, healthy.
		if err := add(0, false, 1, FullBucket); err != nil {
			return Shares{}, err
		}
	} else {
		hb, db := m.load.Buckets()
		for p, l := range m.load.Levels {
			if err := add(p, false, float64(l.HealthyLoad)/100, hb[p]); err != nil {
				return Shares{}, err
			}
			if err := add(p, true, float64(l.DegradedLoad)/100, db[p]); err != nil {
				return Shares{}, err
			}
		}
	}
	for p := range m.levels {
		ps, err := m.priorityShares(p)
		if err != nil {
			return Shares{}, err
		}
		out.Priorities = append(out.Priorities, ps)
	}
	for _, x := range out.Hosts {
		if math.IsNaN(x) {
			return Shares{}, errors.New("share is NaN")
		}
	}
	return out, nil
}

func (m *preparedCluster) priorityShares(p int) (PriorityShares, error) {
	ps := PriorityShares{Priority: p, Panic: m.load.Levels[p].Panic, HasLocal: m.locs[p].HasLocal}
	if m.in.LocalityWeighted {
		ps.HealthyScheduler, ps.DegradedScheduler = m.sched[p], m.dsched[p]
		ps.LocalityFallback = !ps.Panic && !m.sched[p] && m.levels[p].Healthy > 0
	}
	hb, db := m.load.Buckets()
	bh, bd := FullBucket, FullBucket
	if p < len(hb) && hb[p].Lo <= hb[p].Hi {
		bh = hb[p]
	}
	if p < len(db) && db[p].Lo <= db[p].Hi {
		bd = db[p]
	}
	hd, _, err := m.sourceDist(p, false, bh)
	if err != nil {
		return ps, err
	}
	dd, _, err := m.sourceDist(p, true, bd)
	if err != nil {
		return ps, err
	}
	for i, g := range m.locs[p].Groups {
		ls := LocalityShare{Locality: g.Locality, Weight: g.Weight, Hosts: len(g.Hosts),
			Healthy: len(g.Healthy), Degraded: len(g.Degraded), Excluded: len(g.Excluded),
			EffectiveWeight: m.ew[p][i], DegradedEffectiveWeight: m.dew[p][i]}
		for _, h := range g.Hosts {
			ls.Share += hd[h]
			ls.DegradedShare += dd[h]
		}
		ps.Localities = append(ps.Localities, ls)
	}
	return ps, nil
}

// Buckets returns, per level, the range of h = hash%100+1 for which
// PriorityLoad.Choose picks that level's healthy hosts, and the range for
// its degraded hosts (Lo > Hi when the load is 0).
func (p PriorityLoad) Buckets() (healthy, degraded []Bucket) {
	cum := 0
	for _, l := range p.Levels {
		healthy = append(healthy, Bucket{cum + 1, cum + l.HealthyLoad})
		cum += l.HealthyLoad
	}
	for _, l := range p.Levels {
		degraded = append(degraded, Bucket{cum + 1, cum + l.DegradedLoad})
		cum += l.DegradedLoad
	}
	return healthy, degraded
}
