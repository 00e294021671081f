package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"

	"github.com/lbctl/lbctl/analyze"
	"github.com/lbctl/lbctl/lbmodel"
)

// LB1512 overprovisioning-absurd: lbctl's own rule, the high-side twin of LB1505.
var _ = register(&Rule{
	ID: "LB1512", Name: "overprovisioning-absurd",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "An overprovisioning_factor so large that a priority level with several hosts keeps all its " +
		"traffic while only one of its hosts is healthy. A level's health is min(100, factor x healthy / hosts) " +
		"(recalculatePerPriorityState, load_balancer_impl.cc; lbmodel.Level.Availability), so with factor >= " +
		"100 x hosts the level never spills to the next priority and one surviving host takes the whole load. " +
		"Only reported for clusters with a lower priority to fail over to.",
	Hint: "Use an overprovisioning_factor close to the default 140 (a percentage, not a multiplier).",
	Check: func(p *Pass) {
		p.assignments(func(cl *analyze.Cluster, a *endpointv3.ClusterLoadAssignment) {
			f := a.GetPolicy().GetOverprovisioningFactor()
			if f == nil || f.GetValue() <= 100 {
				return
			}
			levels := p.Model(cl).Levels()
			if populated(levels) < 2 {
				return
			}
			for i, l := range levels[:len(levels)-1] {
				n := l.Hosts - l.Excluded
				if n < 2 {
					continue
				}
				one := lbmodel.Level{Hosts: n, Healthy: 1, OverprovisioningFactor: f.GetValue()}
				if h, _ := one.Availability(); h == 100 {
					p.Report(p.Cfg.Sources.ValuePos(a.GetPolicy(), "overprovisioning_factor"),
						"cluster %q: overprovisioning_factor %d keeps P%d at 100%% health with 1 of its %d hosts healthy, so it never fails over", cl.Name(), f.GetValue(), i, n)
					return
				}
			}
		})
	},
})
