package analyze

import (
	"fmt"

	"github.com/lbctl/lbctl/lbmodel"
)

// hostPolicy says how host shares inside a host source are computed.
type hostPolicy struct {
	lb lbmodel.HostLB
	// computable is false for policies whose host choice lbctl cannot
	// model from config (CLUSTER_PROVIDED, ORIGINAL_DST, unknown ones).
	computable bool
	// hashErr is a ring/table configuration error (Envoy rejects the cluster).
	hashErr error
}

// clusterInput builds lbmodel's input for a non-aggregate cluster.
func (c *Config) clusterInput(cl *Cluster, m *Model, s LBSettings, opt ExplainOptions) (lbmodel.ClusterInput, *hostPolicy, error) {
	in := lbmodel.ClusterInput{
		Hosts:                  m.Hosts,
		OverprovisioningFactor: m.OverprovisioningFactor,
		WeightedPriorityHealth: m.WeightedPriorityHealth,
		PanicThreshold:         m.PanicThreshold,
		LocalityWeighted:       s.LocalityWeighted,
		ZoneAware:              s.ZoneAware,
	}
	hp := &hostPolicy{computable: true}
	switch m.Policy {
	case "ROUND_ROBIN", "WRR_LOCALITY":
		hp.lb.Policy = lbmodel.PolicyRoundRobin
	case "LEAST_REQUEST":
		hp.lb.Policy = lbmodel.PolicyLeastRequest
		hp.lb.LeastRequest = s.LeastRequest
		if len(opt.ActiveRequests) > 0 {
			hp.lb.ActiveRequests = make([]uint64, len(m.Hosts))
			for i, h := range m.Hosts {
				hp.lb.ActiveRequests[i] = opt.ActiveRequests[h.Address]
			}
		}
	case "RANDOM":
		hp.lb.Policy = lbmodel.PolicyRandom
	case "RING_HASH", "MAGLEV":
		hp.lb.Policy = lbmodel.PolicyPrecomputed
		policy, ring, maglev, locality := m.Policy, s.Ring, s.Maglev, s.LocalityWeighted
		if err := ring.Validate(); policy == "RING_HASH" && err != nil {
			hp.hashErr = err
		}
		if err := maglev.Validate(); policy == "MAGLEV" && err != nil {
			hp.hashErr = err
		}
		hp.lb.Precomputed = func(source []lbmodel.Host) ([]float64, error) {
			return hashShares(policy, source, ring, maglev, locality)
		}
		if hp.hashErr != nil {
			hp.computable = false
			hp.lb.Policy = lbmodel.PolicyRandom // placeholder: shares are not shown
		}
	default:
		hp.computable = false
		hp.lb.Policy = lbmodel.PolicyRandom // priority loads still hold; host shares are not shown
	}
	in.LB = hp.lb

	local := c.LocalClusterName(opt)
	zone, zoneKnown := c.nodeLocality(opt)
	in.NodeLocality, in.HasNodeLocality = zone, zoneKnown
	if local != "" && local != m.Name && !m.IsAggregate {
		if lc := c.Cluster(local); lc != nil && zoneKnown {
			in.HasLocalCluster = true
			in.LocalCluster = c.Model(lc).Hosts
		}
	}
	return in, hp, nil
}

// nodeLocality is --zone, else the bootstrap's node.locality.
func (c *Config) nodeLocality(opt ExplainOptions) (lbmodel.Locality, bool) {
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
func (c *Config) LocalClusterName(opt ExplainOptions) string {
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
