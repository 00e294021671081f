package lbmodel

import "math"

// ZoneState is ZoneAwareLoadBalancerBase::LocalityRoutingState.
type ZoneState int

const (
	NoLocalityRouting ZoneState = iota
	LocalityDirect
	LocalityResidual
)

func (s ZoneState) String() string {
	switch s {
	case LocalityDirect:
		return "LocalityDirect"
	case LocalityResidual:
		return "LocalityResidual"
	}
	return "NoLocalityRouting"
}

// ZoneExit says which precondition turned zone routing off
// (earlyExitNonLocalityRouting, checked in this order).
type ZoneExit int

const (
	ZoneExitNone ZoneExit = iota
	// ZoneExitNoLocalCluster: no local cluster, so Envoy never computes the state.
	ZoneExitNoLocalCluster
	// ZoneExitUpstreamLocalities: upstream P0 has fewer than 2 localities.
	ZoneExitUpstreamLocalities
	// ZoneExitLocalLocalities: the local cluster has fewer than 2 localities
	// and force_local_zone is off.
	ZoneExitLocalLocalities
	// ZoneExitLocalClusterNotOK: the local cluster has no host in the node's
	// locality (stat lb_local_cluster_not_ok).
	ZoneExitLocalClusterNotOK
	// ZoneExitClusterTooSmall: upstream P0 healthy hosts < min_cluster_size
	// (stat lb_zone_cluster_too_small).
	ZoneExitClusterTooSmall
)

var zoneExitNames = [...]string{"", "no_local_cluster", "upstream_localities_lt_2",
	"local_localities_lt_2", "local_cluster_not_ok", "cluster_too_small"}

func (e ZoneExit) String() string {
	if e >= 0 && int(e) < len(zoneExitNames) {
		return zoneExitNames[e]
	}
	return "unknown"
}

// DefaultMinClusterSize is zone_aware_lb_config.min_cluster_size's default.
const DefaultMinClusterSize = 6

// ZoneAwareConfig is LocalityLbConfig.ZoneAwareLbConfig (or the legacy
// CommonLbConfig.ZoneAwareLbConfig) with presence flags, so that unset
// fields take Envoy's defaults.
type ZoneAwareConfig struct {
	RoutingEnabled    float64 // Percent; default 100
	RoutingEnabledSet bool
	MinClusterSize    uint64 // default 6
	MinClusterSizeSet bool
	// FailTrafficOnPanic: a panicking upstream priority or local cluster
	// selects no host.
	FailTrafficOnPanic bool
	// ForceLocalZone is force_local_zone being present (or the deprecated
	// force_locality_direct_routing: true); its min_size defaults to 1.
	ForceLocalZone           bool
	ForceLocalZoneMinSize    uint32
	ForceLocalZoneMinSizeSet bool
	// HealthyHostsWeight is locality_basis: HEALTHY_HOSTS_WEIGHT.
	HealthyHostsWeight bool
}

// PercentToInt is ProtobufPercentHelper::convertPercent as used by
// PROTOBUF_PERCENT_TO_ROUNDED_INTEGER_OR_DEFAULT: uint64(100·(v/100)),
// truncated, so 29 becomes 28. Values are capped to 0..100.
func PercentToInt(v float64) int {
	if math.IsNaN(v) || v <= 0 {
		return 0
	}
	return int(min(100, uint64(100*(v/100.0))))
}

// RoutingEnabledPercent is the per-request cutoff: featureEnabled draws
// random%100 and routes by zone when it is below this value.
func (c ZoneAwareConfig) RoutingEnabledPercent() int {
	if !c.RoutingEnabledSet {
		return 100
	}
	return PercentToInt(c.RoutingEnabled)
}

// MinSize is the effective min_cluster_size.
func (c ZoneAwareConfig) MinSize() uint64 {
	if !c.MinClusterSizeSet {
		return DefaultMinClusterSize
	}
	return c.MinClusterSize
}

// forceMinSize is force_local_zone_min_size_ (absent when off).
func (c ZoneAwareConfig) forceMinSize() (uint64, bool) {
	if !c.ForceLocalZone {
		return 0, false
	}
	if !c.ForceLocalZoneMinSizeSet {
		return 1, true
	}
	return uint64(c.ForceLocalZoneMinSize), true
}

// ZoneRouting is the zone-aware state of upstream priority 0.
type ZoneRouting struct {
	State ZoneState
	Exit  ZoneExit
	// Localities are upstream P0's localities in Envoy's order (the node's
	// locality first when HasLocal).
	Localities []Locality
	HasLocal   bool
	// LocalPercent and UpstreamPercent are calculateLocalityPercentages on
	// the 10000 scale, per upstream locality.
	LocalPercent, UpstreamPercent []uint64
	// LocalPercentToRoute (10000 scale) and the cumulative ResidualCapacity
	// are set in LocalityResidual.
	LocalPercentToRoute uint64
	ResidualCapacity    []uint64
	// NoCapacityLeft: residual total 0, cross-zone picks are uniform over
	// every upstream locality (lb_zone_no_capacity_left).
	NoCapacityLeft bool
	// RoutingEnabled is the per-request cutoff 0..100.
	RoutingEnabled int
	// Shares is each upstream locality's share of the requests that reach
	// the zone pick (tryChooseLocalLocalityHosts); nil when NoLocalityRouting.
	Shares []float64
}

// zoneValue is a locality's v(L): healthy host count, or their weight sum.
func zoneValue(hosts []Host, idx []int, byWeight bool) uint64 {
	if !byWeight {
		return uint64(len(idx))
	}
	var s uint64
	for _, i := range idx {
		s += uint64(HostWeight(hosts[i]))
	}
	return s
}

// ComputeZoneRouting is regenerateLocalityRoutingStructures with
// earlyExitNonLocalityRouting and calculateLocalityPercentages
// (load_balancer_impl.cc). upstream holds the upstream cluster's hosts (only
// priority 0 is used); local holds the local cluster's hosts (all taken as
// its priority 0). node is the Envoy's own locality (nodeKnown false when
// unset). ORCA_LOAD locality basis is not modelled.
func ComputeZoneRouting(upstream, local []Host, node Locality, nodeKnown bool, cfg ZoneAwareConfig) ZoneRouting {
	z := ZoneRouting{RoutingEnabled: cfg.RoutingEnabledPercent()}
	up := GroupLocalities(upstream, 0, node, nodeKnown)
	localP0 := make([]Host, len(local))
	for i, h := range local {
		h.Priority = 0
		localP0[i] = h
	}
	lo := GroupLocalities(localP0, 0, node, nodeKnown)
	for _, g := range up.Groups {
		z.Localities = append(z.Localities, g.Locality)
	}
	z.HasLocal = up.HasLocal

	forceMin, force := cfg.forceMinSize()
	healthyP0 := 0
	for _, g := range up.Groups {
		healthyP0 += len(g.Healthy)
	}
	switch {
	case len(up.Groups) < 2:
		z.Exit = ZoneExitUpstreamLocalities
	case !force && len(lo.Groups) < 2:
		z.Exit = ZoneExitLocalLocalities
	case !lo.HasLocal || len(lo.Groups[0].Hosts) == 0:
		z.Exit = ZoneExitLocalClusterNotOK
	case uint64(healthyP0) < cfg.MinSize():
		z.Exit = ZoneExitClusterTooSmall
	}
	if z.Exit != ZoneExitNone {
		return z
	}

	// calculateLocalityPercentages: localities matched by identity.
	localV := map[Locality]uint64{}
	var totalLocal, totalUp uint64
	for _, g := range lo.Groups {
		v := zoneValue(localP0, g.Healthy, cfg.HealthyHostsWeight)
		totalLocal += v
		if len(g.Healthy) > 0 {
			localV[g.Locality] = v
		}
	}
	upV := make([]uint64, len(up.Groups))
	for i, g := range up.Groups {
		upV[i] = zoneValue(upstream, g.Healthy, cfg.HealthyHostsWeight)
		totalUp += upV[i]
	}
	n := len(up.Groups)
	z.LocalPercent = make([]uint64, n)
	z.UpstreamPercent = make([]uint64, n)
	for i, g := range up.Groups {
		if len(g.Healthy) == 0 {
			continue
		}
		if totalLocal > 0 {
			z.LocalPercent[i] = 10000 * localV[g.Locality] / totalLocal
		}
		if totalUp > 0 {
			z.UpstreamPercent[i] = 10000 * upV[i] / totalUp
		}
	}

	if up.HasLocal {
		direct := z.UpstreamPercent[0] > 0 && z.UpstreamPercent[0] >= z.LocalPercent[0]
		if direct || (force && uint64(len(up.Groups[0].Healthy)) >= forceMin) {
			z.State = LocalityDirect
			z.Shares = make([]float64, n)
			z.Shares[0] = 1
			return z
		}
	}
	z.State = LocalityResidual
	if up.HasLocal && z.LocalPercent[0] > 0 {
		z.LocalPercentToRoute = z.UpstreamPercent[0] * 10000 / z.LocalPercent[0]
	}
	z.ResidualCapacity = make([]uint64, n)
	var last uint64
	for i := range n {
		if !(i == 0 && up.HasLocal) && z.UpstreamPercent[i] > z.LocalPercent[i] {
			last += z.UpstreamPercent[i] - z.LocalPercent[i]
		}
		z.ResidualCapacity[i] = last
	}
	z.NoCapacityLeft = last == 0
	z.Shares = zoneShares(z, n)
	return z
}

// zoneShares is the long-run outcome of tryChooseLocalLocalityHosts in
// LocalityResidual: random%10000 < local_percent_to_route picks index 0,
// otherwise random % R[N-1] against the cumulative residuals, or, with no
// residual left, random % N over all localities.
func zoneShares(z ZoneRouting, n int) []float64 {
	s := make([]float64, n)
	q := min(1, float64(z.LocalPercentToRoute)/10000)
	total := z.ResidualCapacity[n-1]
	if total == 0 {
		for i := range s {
			s[i] = (1 - q) / float64(n)
		}
	} else {
		prev := uint64(0)
		for i, r := range z.ResidualCapacity {
			s[i] = (1 - q) * float64(r-prev) / float64(total)
			prev = r
		}
	}
	s[0] += q
	return s
}
