package lint

import (
	aggregatev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/clusters/aggregate/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// aggregate is one envoy.clusters.aggregate cluster and its child list.
type aggregate struct {
	cl       *config.Cluster
	conf     *aggregatev3.ClusterConfig // nil if the typed config did not decode
	children []string
}

// aggregates lists the loaded aggregate clusters in load order.
func (p *Pass) aggregates() []*aggregate {
	var out []*aggregate
	for _, cl := range p.Cfg.Clusters {
		m := p.Model(cl)
		if !m.IsAggregate {
			continue
		}
		a := &aggregate{cl: cl, children: m.Aggregate}
		a.conf, _ = p.Cfg.Sources.Unpacked(cl.Proto.GetClusterType().GetTypedConfig()).(*aggregatev3.ClusterConfig)
		out = append(out, a)
	}
	return out
}

// childPos is where child i of a is written.
func (p *Pass) childPos(a *aggregate, i int) config.Pos {
	if a.conf == nil {
		return p.pos(a.cl.Proto, "cluster_type")
	}
	return p.Cfg.Sources.ElemPos(a.conf, "clusters", i)
}

// isAggregate reports whether the named cluster is loaded and an aggregate.
func (p *Pass) isAggregate(name string) bool {
	cl := p.Cfg.Cluster(name)
	return cl != nil && p.Model(cl).IsAggregate
}
