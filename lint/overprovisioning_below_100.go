package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1505 overprovisioning-below-100 (PRI-OPF-BELOW-100).
var _ = register(&Rule{
	ID: "LB1505", Name: "overprovisioning-below-100", Spec: "PRI-OPF-BELOW-100",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "An overprovisioning_factor below 100. A level's health is min(100, factor x healthy%) " +
		"(recalculatePerPriorityState, load_balancer_impl.cc), so even a fully healthy P0 has health below 100: " +
		"the remainder always spills to P1, or with one priority the normalized total scales it back, " +
		"permanently sending cross-priority traffic.",
	Hint: "Use overprovisioning_factor >= 100 (the default is 140).",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			if f := a.GetPolicy().GetOverprovisioningFactor(); f != nil && f.GetValue() > 0 && f.GetValue() < 100 {
				m := p.Model(cl)
				h := 0
				if lv := m.Levels(); len(lv) > 0 {
					h, _ = lv[0].Availability()
				}
				p.Report(p.Cfg.Sources.ValuePos(a.GetPolicy(), "overprovisioning_factor"),
					"cluster %q: overprovisioning_factor %d < 100, so P0 health is %d%% today and never reaches 100", cl.Name(), f.GetValue(), h)
			}
		})
	},
})
