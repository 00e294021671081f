package model

import (
	"fmt"

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
	switch m.Policy {
	case "ROUND_ROBIN", "WRR_LOCALITY":
		hp.LB.Policy = lbmodel.PolicyRoundRobin
	case "LEAST_REQUEST":
		hp.LB.Policy = lbmodel.PolicyLeastRequest
		hp.LB.LeastRequest = s.LeastRequest
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
		if hp.HashErr != nil {
			hp.Computable = false
			hp.LB.Policy = lbmodel.PolicyRandom // placeholder: shares are not shown
		}
	default:
		hp.Computable = false
		hp.LB.Policy = lbmodel.PolicyRandom // priority loads still hold; host shares are not shown
	}
	in.LB = hp.LB

	local := LocalClusterName(c, opt)
	zone, zoneKnown := NodeLocality(c, opt)
	in.NodeLocality, in.HasNodeLocality = zone, zoneKnown
	if local != "" && local != m.Name && !m.IsAggregate {
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
	// Map back by address: the ring orders hosts its own way.
	used := make([]bool, len(source))
	for _, s := range hs {
		for i, h := range source {
			if !used[i] && h.Address == s.Address {
				used[i] = true
				out[i] = s.Share
				break
			}
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
