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
	ps, err := subset.Shares(cfg, cl, crit, opt)
	if errors.Is(err, subset.ErrNoSubsetConfig) {
		return route.ClusterHosts{}, false, nil
	}
	if err != nil {
		return route.ClusterHosts{}, true, err
	}
	name := cl.Name()
	var out route.ClusterHosts
	d := ps.Decision
	switch {
	case d.Yield == lbsubset.YieldNone:
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: the subset load balancer returns no host: %s", name, d.Reason))
		return out, true, nil
	case d.Source == lbsubset.SourceSubset && (d.Subset == nil || !d.Subset.SingleHost):
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %s; the subset runs its own %s load balancer", name, d.Reason, ps.Settings.Policy))
	default:
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %s", name, d.Reason))
	}
	out.Notes = append(out.Notes, ps.Notes...)
	if ps.Pool != nil && model.IsHashPolicy(ps.Settings.Policy) {
		pick, err := hashPick(cfg, cl, hashing.HashOptions{Route: routeName, Pool: &hashing.Pool{Model: ps.Pool, Settings: ps.Settings}}, req)
		if err != nil {
			return route.ClusterHosts{}, true, err
		}
		if pick != nil {
			out.Hash = pick
			out.Hosts = []route.HostShare{{Cluster: name, Address: pick.Host, Share: 1}}
			return out, true, nil
		}
	}
	if ps.Shares == nil {
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: the subset's %d host(s) get shares lbctl cannot compute", name, len(ps.Hosts)))
		return out, true, nil
	}
	for i, h := range ps.Hosts {
		out.Hosts = append(out.Hosts, route.HostShare{Cluster: name, Address: h.Address, Share: explain.CleanShare(ps.Shares[i])})
	}
	if ps.NoHost > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("cluster %q: %.4g of its requests find no host in the subset load balancer", name, explain.CleanShare(ps.NoHost)))
	}
	return out, true, nil
}
