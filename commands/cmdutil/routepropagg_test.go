package cmdutil

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/subset"
	"github.com/lbctl/lbctl/lbmodel"
)

// addAggSub adds aggsub's expected shares, weighted w: explain's
// linearized loads over [sub, c1]; c1's levels carry explain's shares; each
// of sub's (priority, availability) loads goes to the subset report's pool
// as a plain cluster with that priority forced (AggregateLoadBalancerContext),
// its no-host rest to sub's whole host set at that priority when the
// fallback pool has panic_mode_any (chooseHostIteration). A RING_HASH
// subset picks by its own priority load: the pool's unforced shares.
func (g genRoute) addAggSub(t *testing.T, cfg *config.Config, rep *subset.SubsetReport, pool *config.Config, w float64, add func(string, float64, route.ClusterHosts, float64)) {
	t.Helper()
	er, err := explain.Build(cfg, []*config.Cluster{cfg.Cluster("aggsub")}, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cr := er.Clusters[0]
	c1 := route.ClusterHosts{}
	for _, h := range cr.Hosts {
		if h.Cluster == "c1" && h.Share != nil {
			c1.Hosts = append(c1.Hosts, route.HostShare{Cluster: "c1", Address: h.Address, Share: *h.Share})
		}
	}
	added := 0.0
	addSum := func(c string, x float64, hs route.ClusterHosts) {
		for _, h := range hs.Hosts {
			added += x * h.Share
		}
		add(c, x, hs, 0)
	}
	addSum("c1", w, c1)
	forced := func(c *config.Config, name string, p int, deg bool) route.ClusterHosts {
		cl := c.Cluster(name)
		m, _, err := model.With(c, cl, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		in, _, err := model.Input(cl, m, model.Settings(c, cl), model.LocalOf(c, model.Options{}), model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := lbmodel.ForcedPriorityShares(in, p, deg)
		if err != nil {
			t.Fatal(err)
		}
		var out route.ClusterHosts
		for i, h := range m.Hosts {
			if d[i] > 0 {
				out.Hosts = append(out.Hosts, route.HostShare{Cluster: "sub", Address: h.Address, Share: d[i]})
			}
		}
		return out
	}
	for _, l := range cr.Aggregate.Levels {
		if l.Cluster != "sub" {
			continue
		}
		for _, lw := range []struct {
			deg bool
			w   float64
		}{{false, float64(l.HealthyLoad) / 100}, {true, float64(l.DegradedLoad) / 100}} {
			if lw.w == 0 || len(rep.Result.Receiving) == 0 {
				continue
			}
			var hs route.ClusterHosts
			if g.subPolicy == "RING_HASH" {
				hs, err = RouteBalancers(pool, model.Options{}).Hosts("pool")
				if err != nil {
					t.Fatal(err)
				}
			} else {
				hs = forced(pool, "pool", l.Priority, lw.deg)
			}
			rest := 0.0
			for _, h := range hs.Hosts {
				rest += h.Share
			}
			rest = 1 - rest
			addSum("sub", w*lw.w, hs)
			if rest > 1e-12 && g.panicAny && rep.Result.Source == "fallback" && g.subPolicy != "RING_HASH" {
				addSum("sub", w*lw.w*rest, forced(cfg, "sub", l.Priority, lw.deg))
			}
		}
	}
	add("aggsub", 0, route.ClusterHosts{}, 0)
	add("", 1, route.ClusterHosts{}, w-added) // the rest finds no host
}
