package model

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/subset"
)

// ChildSettings are the settings of the policy every subset of cl runs:
// the cluster's own for lb_subset_config (the legacy fields configure the
// child), the child entry's for the typed subset policy, whose
// subset_lb_policy builds each subset's load balancer
// (SubsetLoadBalancer::PrioritySubsetImpl, lb_config_.createLoadBalancer).
// Policy is the child's name; Envoy's rejections of cl are kept.
func (s *SubsetSetup) ChildSettings(c *config.Config, cl *config.Cluster) LBSettings {
	own := Settings(c, cl)
	if !s.Typed {
		own.Policy = s.ChildPolicy
		return own
	}
	out := LBSettings{Policy: s.ChildPolicy, Ring: own.Ring, Maglev: own.Maglev,
		Rejected: own.Rejected, RejectedAt: own.RejectedAt, RejectedWhy: own.RejectedWhy}
	if _, _, child := typedSubset(c, cl.Proto); child != nil {
		out.Typed = child
		out.typedEntry(c, child, 0)
	}
	// The child may set its own ring or table size.
	places := out.places(cl)
	out.setPos(c.Sources.AppendPlaces(nil, places[:]))
	return out
}

// PoolModel is the model of one subset's host set as its child load
// balancer sees it (HostSubsetImpl::update): the pool's hosts with their
// priorities, health and weights, under the cluster's overprovisioning
// factor, weighted_priority_health and panic threshold, and the locality
// weights determineLocalityWeights gives the pool (none unless
// locality_weight_aware), with the weight of the cluster's localities
// that have no pool host in EmptyLocalityWeight. locality is false when the pool carries no
// locality weights, so the child does no locality-weighted pick
// (LocalityWrr builds no scheduler and normalizeWeights stays flat).
// all are the cluster's hosts, pool a subset of them.
func (m *Model) PoolModel(cfg subset.Config, policy string, all, pool []lbmodel.Host) (pm *Model, locality bool) {
	out := *m
	out.tables = nil
	out.Policy = policy
	out.IsAggregate, out.Aggregate = false, nil
	out.EmptyLocalityWeight = nil
	out.Hosts = make([]lbmodel.Host, len(pool))
	copy(out.Hosts, pool)
	weights := map[int]map[lbmodel.Locality]uint32{}
	for i := range out.Hosts {
		h := &out.Hosts[i]
		w, ok := weights[h.Priority]
		if !ok {
			w = map[lbmodel.Locality]uint32{}
			ls := subset.LocalityWeights(cfg, all, pool, h.Priority)
			for _, l := range ls {
				w[l.Locality] = l.Weight
				if l.Hosts == 0 && l.Weight > 0 {
					if out.EmptyLocalityWeight == nil {
						out.EmptyLocalityWeight = map[int]uint64{}
					}
					out.EmptyLocalityWeight[h.Priority] += uint64(l.Weight)
				}
			}
			if ls == nil {
				w = nil
			}
			weights[h.Priority] = w
		}
		if w != nil {
			locality = true
		}
		h.LocalityWeight = w[h.Locality]
	}
	return &out, locality
}
