package cmdutil

import (
	"fmt"
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/subset"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// aggregateHosts is where aggregate agg sends a request carrying crit when
// some child picks differently from explain's forced-priority shares: a
// child with subset load balancing, or a hashing child the request hashes
// for. AggregateClusterLoadBalancer::LoadBalancerImpl::chooseHost picks a
// (child, priority, availability) by the linearized priority load and
// calls the child's load balancer with an AggregateLoadBalancerContext
// that forces that priority and passes metadataMatchCriteria and
// computeHashKey on. A subset child chooses its subset from the criteria
// and the subset's load balancer picks at the forced priority; a hashing
// child (or subset whose child policy hashes) ignores the forced load:
// ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost picks the
// priority from its own per_priority_load_ with the request's hash. ok is
// false when no child needs this (explain's shares are exact).
// It reads agg's explain report through explainOf, which RouteBalancers
// shares with Hosts.
func aggregateHosts(cfg *config.Config, agg *config.Cluster, explainOf func(*config.Cluster) (traffic.ClusterReport, error), crit map[string]any, routeName string, req route.Request, opt model.Options) (route.ClusterHosts, bool, error) {
	if !model.IsAggregate(agg) {
		return route.ClusterHosts{}, false, nil
	}
	cr, err := explainOf(agg)
	if err != nil {
		return route.ClusterHosts{}, false, err
	}
	if cr.Aggregate == nil {
		return route.ClusterHosts{}, false, nil
	}
	weights := childWeights(cr.Aggregate.Levels)
	var out route.ClusterHosts
	exact := map[string]bool{}
	for _, name := range cr.Aggregate.Clusters {
		ccl := cfg.Cluster(name)
		if exact[name] || ccl == nil || model.IsAggregate(ccl) || len(weights[name]) == 0 {
			continue
		}
		hosts, ok, err := childHosts(cfg, ccl, crit, routeName, req, opt, weights[name])
		if err != nil {
			return route.ClusterHosts{}, true, fmt.Errorf("child %q: %w", name, err)
		}
		if !ok {
			continue
		}
		exact[name] = true
		for _, n := range hosts.Notes {
			out.Notes = append(out.Notes, fmt.Sprintf("in aggregate %q: %s", agg.Name(), n))
		}
		if hosts.Hash != nil && out.Hash == nil {
			out.Hash = hosts.Hash
		}
		out.Hosts = append(out.Hosts, hosts.Hosts...)
	}
	if len(exact) == 0 {
		return route.ClusterHosts{}, false, nil
	}
	unknown := 0
	for _, h := range cr.Hosts {
		if exact[h.Cluster] {
			continue
		}
		if h.Share == nil {
			unknown++
		} else if *h.Share > 0 {
			out.Hosts = append(out.Hosts, route.HostShare{Cluster: h.Cluster, Address: h.Address, Share: *h.Share})
		}
	}
	sort.SliceStable(out.Hosts, func(i, j int) bool { return out.Hosts[i].Share > out.Hosts[j].Share })
	if unknown > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %d host share(s) cannot be computed (see lbctl explain)", agg.Name(), unknown))
		return out, true, nil
	}
	sum := 0.0
	for _, h := range out.Hosts {
		sum += h.Share
	}
	if nh := explain.CleanShare(1 - sum); nh > 1e-12 {
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %.4g of its requests find no host", agg.Name(), nh))
	}
	return out, true, nil
}

// levelWeight is the aggregate's share sent to one child priority with
// one availability.
type levelWeight struct {
	forced subset.Forced
	w      float64
}

// childWeights groups the aggregate's linearized loads by child. Loads
// that are all 0 still pick linearized P0 healthy: choosePriority's
// fall-through return (as lbmodel.ComputeAggregateShares does).
func childWeights(levels []traffic.AggregateLevel) map[string][]levelWeight {
	out := map[string][]levelWeight{}
	total := 0
	for _, l := range levels {
		total += l.HealthyLoad + l.DegradedLoad
	}
	if total == 0 && len(levels) > 0 {
		l := levels[0]
		out[l.Cluster] = []levelWeight{{subset.Forced{Priority: l.Priority}, 1}}
		return out
	}
	for _, l := range levels {
		if l.HealthyLoad > 0 {
			out[l.Cluster] = append(out[l.Cluster], levelWeight{subset.Forced{Priority: l.Priority}, float64(l.HealthyLoad) / 100})
		}
		if l.DegradedLoad > 0 {
			out[l.Cluster] = append(out[l.Cluster], levelWeight{subset.Forced{Priority: l.Priority, Degraded: true}, float64(l.DegradedLoad) / 100})
		}
	}
	return out
}

// childHosts is one child's hosts with their shares of the aggregate's
// traffic, given the aggregate's weights on its priorities; ok is false
// when explain's shares for it are exact.
func childHosts(cfg *config.Config, cl *config.Cluster, crit map[string]any, routeName string, req route.Request, opt model.Options, ws []levelWeight) (route.ClusterHosts, bool, error) {
	total := 0.0
	for _, w := range ws {
		total += w.w
	}
	one := func(p *route.HashPick) route.ClusterHosts {
		return route.ClusterHosts{Hash: p, Hosts: []route.HostShare{{Cluster: cl.Name(), Address: p.Host, Share: total}}}
	}
	sp, ok, err := subsetHosts(cfg, cl, crit, routeName, req, opt)
	sh := sp.hosts
	if err != nil || !ok {
		if err == nil && model.IsHashPolicy(model.Get(cfg, cl).Policy) {
			p, err := hashPick(cfg, cl, hashing.HashOptions{Route: routeName}, req)
			if err != nil || p == nil {
				return route.ClusterHosts{}, false, err
			}
			out := one(p)
			out.Notes = []string{fmt.Sprintf("cluster %q hashes this request (%s) to one host: its ring or table lookup picks the priority from its own load, not the aggregate's", cl.Name(), p.Policy)}
			return out, true, nil
		}
		return route.ClusterHosts{}, false, err
	}
	if sh.Hash != nil {
		out := one(sh.Hash)
		out.Notes = append(sh.Notes, fmt.Sprintf("cluster %q hashes this request (%s) to one host of the subset's own ring or table, whatever priority the aggregate chose", cl.Name(), sh.Hash.Policy))
		return out, true, nil
	}
	// The unforced no-host share does not hold at a forced priority
	// (subsetHosts leaves it out); the aggregate's own note counts what
	// finds no host.
	out := route.ClusterHosts{Notes: sh.Notes}
	if model.IsHashPolicy(sp.policy) {
		// No request hash: the subset's ring draws a random one and picks
		// the priority by its own load, so its unforced shares.
		for _, h := range sh.Hosts {
			h.Share *= total
			out.Hosts = append(out.Hosts, h)
		}
		return out, true, nil
	}
	idx := map[string]int{}
	setup, err := subset.NewPoolSetup(cfg, cl, crit, opt)
	if err != nil {
		return route.ClusterHosts{}, true, err
	}
	for _, w := range ws {
		ps, err := setup.At(&w.forced)
		if err != nil {
			return route.ClusterHosts{}, true, err
		}
		if ps.Shares == nil {
			return route.ClusterHosts{Notes: append(out.Notes, fmt.Sprintf("cluster %q: the subset's hosts get shares lbctl cannot compute", cl.Name()))}, true, nil
		}
		for i, h := range ps.Hosts {
			k := fmt.Sprintf("%s/%d", h.Address, h.Priority)
			j, seen := idx[k]
			if !seen {
				j = len(out.Hosts)
				idx[k] = j
				out.Hosts = append(out.Hosts, route.HostShare{Cluster: cl.Name(), Address: h.Address})
			}
			out.Hosts[j].Share += w.w * ps.Shares[i]
		}
	}
	for i := range out.Hosts {
		out.Hosts[i].Share = explain.CleanShare(out.Hosts[i].Share)
	}
	out.Notes = append(out.Notes, fmt.Sprintf("cluster %q picks inside its subset at the priority the aggregate forces (AggregateLoadBalancerContext)", cl.Name()))
	return out, true, nil
}
