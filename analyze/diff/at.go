package diff

import (
	"github.com/lbctl/lbctl/analyze/config"
)

// changedAt is where in NEW a cluster's change shows, for annotations on
// the changed line: the lb_policy field when the policy changed, else the
// endpoint of the biggest host move, else the subset or the cluster itself.
func changedAt(c *config.Config, cl *config.Cluster, d *Cluster) string {
	src := c.Sources
	if d.LbPolicy != nil {
		if p := src.FieldPos(cl.Proto, "lb_policy"); p.Line > 0 {
			return p.String()
		}
	}
	for _, h := range d.Hosts {
		if h.Cluster != "" || h.Change == "removed" {
			continue // an aggregate's hosts are its children's
		}
		for _, g := range cl.Assignment.GetEndpoints() {
			for _, ep := range g.GetLbEndpoints() {
				if config.FormatAddress(ep.GetEndpoint().GetAddress()) == h.Address {
					if p := src.Pos(ep); p.Line > 0 {
						return p.String()
					}
				}
			}
		}
	}
	if d.Subset != nil {
		if p := src.FieldPos(cl.Proto, "lb_subset_config"); p.Line > 0 {
			return p.String()
		}
	}
	return src.Pos(cl.Proto).String()
}
