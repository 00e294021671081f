package cmdutil

import (
	"errors"
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/subset"
	lbsubset "github.com/lbctl/lbctl/lbmodel/subset"
)

// SubsetHosts is where cl's subset load balancer sends a request carrying
// crit: the pool's hosts with the shares its child load balancer gives
// them (subset.Shares), or, when the child hashes and route's hash policy
// hashes req, the one host of the subset's own ring or table. ok is
// false when cl has no subset load balancing.
func SubsetHosts(cfg *config.Config, cl *config.Cluster, crit map[string]any, routeName string, req route.Request, opt model.Options) (route.ClusterHosts, bool, error) {
	sp, ok, err := subsetHosts(cfg, cl, crit, routeName, req, opt)
	if sp.noHost > 0 {
		sp.hosts.Notes = append(sp.hosts.Notes, fmt.Sprintf("cluster %q: %.4g of its requests find no host in the subset load balancer", cl.Name(), explain.CleanShare(sp.noHost)))
	}
	return sp.hosts, ok, err
}

// subsetPick is SubsetHosts' answer before its no-host note: an
// aggregate's forced priority changes what finds no host, so
// aggregateHosts counts that itself.
type subsetPick struct {
	hosts route.ClusterHosts
	// noHost is the share of requests the hosts leave out.
	noHost float64
	// policy is the subset's child load balancing policy.
	policy string
}

func subsetHosts(cfg *config.Config, cl *config.Cluster, crit map[string]any, routeName string, req route.Request, opt model.Options) (subsetPick, bool, error) {
	ps, err := subset.Shares(cfg, cl, crit, opt)
	if errors.Is(err, subset.ErrNoSubsetConfig) {
		return subsetPick{}, false, nil
	}
	if err != nil {
		return subsetPick{}, true, err
	}
	name := cl.Name()
	sp := subsetPick{policy: ps.Settings.Policy}
	out := &sp.hosts
	d := ps.Decision
	switch {
	case d.Yield == lbsubset.YieldNone:
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: the subset load balancer returns no host: %s", name, d.Reason))
		return sp, true, nil
	case d.Source == lbsubset.SourceSubset && (d.Subset == nil || !d.Subset.SingleHost):
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %s; the subset runs its own %s load balancer", name, d.Reason, ps.Settings.Policy))
	default:
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %s", name, d.Reason))
	}
	out.Notes = append(out.Notes, ps.Notes...)
	if ps.Pool != nil && model.IsHashPolicy(ps.Settings.Policy) {
		pick, err := hashPick(cfg, cl, hashing.HashOptions{Route: routeName, Pool: &hashing.Pool{Model: ps.Pool, Settings: ps.Settings}}, req)
		if err != nil {
			return subsetPick{}, true, err
		}
		if pick != nil {
			out.Hash = pick
			out.Hosts = []route.HostShare{{Cluster: name, Address: pick.Host, Share: 1}}
			return sp, true, nil
		}
	}
	if ps.Shares == nil {
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: the subset's %d host(s) get shares lbctl cannot compute", name, len(ps.Hosts)))
		return sp, true, nil
	}
	for i, h := range ps.Hosts {
		out.Hosts = append(out.Hosts, route.HostShare{Cluster: name, Address: h.Address, Share: explain.CleanShare(ps.Shares[i])})
	}
	sp.noHost = ps.NoHost
	return sp, true, nil
}
