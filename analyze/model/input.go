package model

import (
	"fmt"
	"math"
	"time"

	"github.com/lbctl/lbctl/lbmodel"

	"github.com/lbctl/lbctl/analyze/config"
)

// HostPolicy says how host shares inside a host source are computed.
type HostPolicy struct {
	LB lbmodel.HostLB
	// Computable is false for policies whose host choice lbctl cannot
	// model from config (CLUSTER_PROVIDED, ORIGINAL_DST, unknown ones).
	Computable bool
	// HashErr is a ring/table configuration error (Envoy rejects the cluster).
	HashErr error
	// Rejected is why Envoy rejects the cluster's LB config at load.
	Rejected string
	// RequestTime describes a policy that picks hosts per request from
	// inputs config does not hold ("" otherwise).
	RequestTime string
}

// clusterInput builds lbmodel's input for a non-aggregate cluster.
func Input(c *config.Config, cl *config.Cluster, m *Model, s LBSettings, opt Options) (lbmodel.ClusterInput, *HostPolicy, error) {
	in := lbmodel.ClusterInput{
		Hosts:                  m.Hosts,
		OverprovisioningFactor: m.OverprovisioningFactor,
		WeightedPriorityHealth: m.WeightedPriorityHealth,
		PanicThreshold:         m.PanicThreshold,
		LocalityWeighted:       s.LocalityWeighted,
		ZoneAware:              s.ZoneAware,
	}
	hp := &HostPolicy{Computable: true}
	if s.Rejected != "" {
		hp.Rejected = s.Rejected
	}
	switch m.Policy {
	case "ROUND_ROBIN":
		hp.LB.Policy = lbmodel.PolicyRoundRobin
		hp.LB.SlowStart = s.SlowStart
		hp.LB.HostAges = hostAges(m.Hosts, opt.HostAges)
	case "CLIENT_SIDE_WEIGHTED_ROUND_ROBIN", "WRR_LOCALITY":
		hp.LB.Policy = lbmodel.PolicyClientSideWRR
		hp.LB.ClientSideWeights = clientSideWeights(m.Hosts, opt.HostWeights, s.CSWRR)
	case "LEAST_REQUEST":
		hp.LB.Policy = lbmodel.PolicyLeastRequest
		hp.LB.LeastRequest = s.LeastRequest
		hp.LB.SlowStart = s.SlowStart
		hp.LB.HostAges = hostAges(m.Hosts, opt.HostAges)
		if len(opt.ActiveRequests) > 0 {
			hp.LB.ActiveRequests = make([]uint64, len(m.Hosts))
			for i, h := range m.Hosts {
				hp.LB.ActiveRequests[i] = opt.ActiveRequests[h.Address]
			}
		}
	case "RANDOM":
		hp.LB.Policy = lbmodel.PolicyRandom
	case "RING_HASH", "MAGLEV":
		hp.LB.Policy = lbmodel.PolicyPrecomputed
		policy, ring, maglev, locality := m.Policy, s.Ring, s.Maglev, s.LocalityWeighted
		if err := ring.Validate(); policy == "RING_HASH" && err != nil {
			hp.HashErr = err
		}
		if err := maglev.Validate(); policy == "MAGLEV" && err != nil {
			hp.HashErr = err
		}
		hp.LB.Precomputed = func(source []lbmodel.Host) ([]float64, error) {
			return hashShares(policy, source, ring, maglev, locality)
		}
		// ThreadAwareLoadBalancerBase builds one table per priority over
		// its healthy hosts (all in panic) with locality weights folded
		// into host weights (normalizeWeights): no locality pick first,
		// and no zone-aware routing.
		in.LocalityWeighted = false
		if hp.HashErr != nil {
			hp.Computable = false
			hp.LB.Policy = lbmodel.PolicyRandom // placeholder: shares are not shown
		}
	default:
		hp.Computable = false
		hp.RequestTime = RequestTimePolicy(m.Policy)
		hp.LB.Policy = lbmodel.PolicyRandom // priority loads still hold; host shares are not shown
	}
	if hp.Rejected != "" {
		hp.Computable = false
	}
	in.LB = hp.LB
	if m.Policy == "WRR_LOCALITY" && hp.Rejected == "" {
		in = lbmodel.WrrLocalityInput(in, hp.LB.ClientSideWeights)
	}

	local := LocalClusterName(c, opt)
	zone, zoneKnown := NodeLocality(c, opt)
	in.NodeLocality, in.HasNodeLocality = zone, zoneKnown
	if local != "" && local != m.Name && !m.IsAggregate && !IsHashPolicy(m.Policy) {
		if lc := c.Cluster(local); lc != nil && zoneKnown {
			in.HasLocalCluster = true
			in.LocalCluster = Of(c, lc).Hosts
		}
	}
	return in, hp, nil
}

// nodeLocality is --zone, else the bootstrap's node.locality.
func NodeLocality(c *config.Config, opt Options) (lbmodel.Locality, bool) {
	if opt.Zone != nil {
		return *opt.Zone, true
	}
	for _, b := range c.Bootstraps {
		if l := b.GetNode().GetLocality(); l != nil {
			return lbmodel.Locality{Region: l.GetRegion(), Zone: l.GetZone(), SubZone: l.GetSubZone()}, true
		}
	}
	return lbmodel.Locality{}, false
}

// LocalClusterName is --local-cluster or cluster_manager.local_cluster_name.
func LocalClusterName(c *config.Config, opt Options) string {
	if opt.LocalCluster != "" {
		return opt.LocalCluster
	}
	for _, b := range c.Bootstraps {
		if n := b.GetClusterManager().GetLocalClusterName(); n != "" {
			return n
		}
	}
	return ""
}

// hashShares is each source host's share of the ring or Maglev table Envoy
// builds over that source.
func hashShares(policy string, source []lbmodel.Host, ring lbmodel.RingConfig, maglev lbmodel.MaglevConfig, locality bool) ([]float64, error) {
	out := make([]float64, len(source))
	if len(source) == 0 {
		return out, nil
	}
	nw, err := lbmodel.NormalizeWeights(source, lbmodel.NormalizeOptions{LocalityWeighted: locality, Panic: true})
	if err != nil {
		return nil, err
	}
	var hs []lbmodel.HostShare
	switch policy {
	case "RING_HASH":
		r, err := lbmodel.BuildRing(nw, ring)
		if err != nil {
			return nil, err
		}
		hs = r.Shares()
	default:
		t, err := lbmodel.BuildMaglev(nw, maglev)
		if err != nil {
			return nil, err
		}
		hs = t.Shares()
	}
	// Map back by address: the ring orders hosts its own way. A repeated
	// address takes the shares in turn, first unused source first; indexed
	// so that 100,000 hosts are not 10^10 comparisons.
	byAddr := map[string][]int{}
	for i, h := range source {
		byAddr[h.Address] = append(byAddr[h.Address], i)
	}
	for _, s := range hs {
		if idx := byAddr[s.Address]; len(idx) > 0 {
			out[idx[0]] = s.Share
			byAddr[s.Address] = idx[1:]
		}
	}
	return out, nil
}

// HealthOverride is one --set-health what-if.
type HealthOverride struct {
	Spec     string
	Cluster  string
	Priority int // -1: every priority
	// Healthy of Total, or Percent when Total is 0.
	Healthy, Total int
	Percent        float64
}

// apply makes the override's share of the hosts healthy (the first in file
// order) and the rest unhealthy, and describes what it did.
func (o HealthOverride) apply(hosts []lbmodel.Host) (string, error) {
	var idx []int
	for i, h := range hosts {
		if o.Priority < 0 || h.Priority == o.Priority {
			idx = append(idx, i)
		}
	}
	n := len(idx)
	if n == 0 {
		return "", fmt.Errorf("--set-health %s: cluster %q has no hosts at that priority", o.Spec, o.Cluster)
	}
	healthy := 0
	if o.Total > 0 {
		if o.Total != n {
			return "", fmt.Errorf("--set-health %s: that priority has %d hosts, not %d", o.Spec, n, o.Total)
		}
		healthy = o.Healthy
	} else {
		// Round half up: 50% of 3 hosts is 2.
		healthy = int(o.Percent*float64(n)/100 + 0.5)
	}
	for k, i := range idx {
		if k < healthy {
			hosts[i].Status = lbmodel.StatusHealthy
		} else {
			hosts[i].Status = lbmodel.StatusUnhealthy
		}
	}
	where := "every priority"
	if o.Priority >= 0 {
		where = fmt.Sprintf("P%d", o.Priority)
	}
	return fmt.Sprintf("what-if (--set-health %s): %s of %s has %d of %d hosts healthy, the rest unhealthy", o.Spec, where, o.Cluster, healthy, n), nil
}

// Options are explain's what-if and context inputs.
type Options struct {
	// LocalCluster overrides cluster_manager.local_cluster_name.
	LocalCluster string
	// Zone overrides the bootstrap's node.locality.
	Zone *lbmodel.Locality
	// ActiveRequests is rq_active by host address, for least request.
	ActiveRequests map[string]uint64
	// SetHealth rewrites host health before computing.
	SetHealth []HealthOverride
	// BudgetOrder is the order in which failure budgets fail hosts.
	BudgetOrder lbmodel.FailOrder
	// HostAges is --host-age: time since each host became healthy, by
	// address, for slow start.
	HostAges map[string]time.Duration
	// HostWeights is --host-weight: a client-side WRR weight as if
	// reported by ORCA, by address.
	HostWeights map[string]uint32
}

// hostAges is HostLB.HostAges from --host-age: hosts not named are past
// any window. nil when no age is given.
func hostAges(hosts []lbmodel.Host, ages map[string]time.Duration) []time.Duration {
	if len(ages) == 0 {
		return nil
	}
	out := make([]time.Duration, len(hosts))
	for i, h := range hosts {
		a, ok := ages[h.Address]
		if !ok {
			a = time.Duration(math.MaxInt64)
		}
		out[i] = a
	}
	return out
}

// clientSideWeights is what updateWeightsOnHosts gives each host, per
// priority, when the hosts named by --host-weight report that weight
// (valid: past the blackout period, not expired) and the others do not.
// nil without --host-weight: every weight is 1.
func clientSideWeights(hosts []lbmodel.Host, weights map[string]uint32, c lbmodel.ClientSideWRRConfig) []uint32 {
	if len(weights) == 0 {
		return nil
	}
	out := make([]uint32, len(hosts))
	byPrio := map[int][]int{}
	for i, h := range hosts {
		byPrio[h.Priority] = append(byPrio[h.Priority], i)
	}
	for _, idx := range byPrio {
		reports := make([]*lbmodel.ReportedWeight, len(idx))
		for k, i := range idx {
			if w, ok := weights[hosts[i].Address]; ok {
				reports[k] = &lbmodel.ReportedWeight{Weight: w, FirstReportAgo: time.Duration(math.MaxInt64)}
			}
		}
		for k, w := range lbmodel.ClientSideWRRWeights(reports, c) {
			out[idx[k]] = w
		}
	}
	return out
}

// model returns cl's model with --set-health applied.
func With(c *config.Config, cl *config.Cluster, opt Options) (*Model, []string, error) {
	m := Of(c, cl)
	var notes []string
	for _, o := range opt.SetHealth {
		if o.Cluster != m.Name {
			continue
		}
		n, err := o.apply(m.Hosts)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, n)
	}
	return m, notes, nil
}
