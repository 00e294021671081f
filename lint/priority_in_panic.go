package lint

import "github.com/lbctl/lbctl/lbmodel"

// LB1901 priority-in-panic: lbctl's own rule, from lbmodel's priority
// arithmetic at the health the configuration states today.
var _ = register(&Rule{
	ID: "LB1901", Name: "priority-in-panic",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A priority level that is already in panic at the endpoints' stated health (EDS health_status, or " +
		"an admin /clusters dump): its healthy share is below the panic threshold and the normalized total " +
		"availability is below 100, so Envoy sends that level's traffic to all its hosts, unhealthy ones " +
		"included (LoadBalancerBase::recalculatePerPriorityPanic, load_balancer_impl.cc, computed by " +
		"lbmodel.ComputePriorityLoad).",
	Hint: "Restore healthy hosts, or lower healthy_panic_threshold if failing open is not wanted.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			m := p.Model(cl)
			levels := m.Levels()
			if len(levels) == 0 || m.IsAggregate {
				continue
			}
			pl := lbmodel.ComputePriorityLoad(levels, m.PanicThreshold)
			for i, l := range pl.Levels {
				if l.Panic && levels[i].Hosts > 0 {
					p.Report(p.pos(cl.Proto, "name"), "P%d of %q is already in panic at today's health (%d of %d hosts healthy, threshold %d%%)",
						i, cl.Name(), levels[i].Healthy, levels[i].Hosts, m.PanicThreshold)
				}
			}
		}
	},
})
