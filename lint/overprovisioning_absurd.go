package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"

	"github.com/lbctl/lbctl/lbmodel"
)

// absurdOPF is 10x: a level with a tenth of its hosts healthy counts as
// fully available. From deliberateOPF (100x) on the value is a choice.
const (
	absurdOPF     = 1000
	deliberateOPF = 10000
)

// LB1512 overprovisioning-absurd: lbctl's own rule, the high-side twin of LB1505.
var _ = register(&Rule{
	ID: "LB1512", Name: "overprovisioning-absurd",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "An overprovisioning_factor of 1000 or more (10x): a priority level with only a tenth of its hosts " +
		"healthy still reports 100% health, because a level's health is min(100, factor x healthy / hosts) " +
		"(recalculatePerPriorityState, load_balancer_impl.cc; lbmodel.Level.Availability). The level then " +
		"never fails over to the next priority (nor sheds locality weight, LocalityWrr::effectiveLocalityWeight) " +
		"until nearly all its hosts are gone, and the survivors take the whole load. The factor is a " +
		"percentage (default 140), so such values are usually a unit mistake. A " +
		"factor of 10000 (100x) or more is the deliberate \"fail over only at zero\" and is info. Only reported when the factor " +
		"matters: several priorities, or locality-weighted LB.",
	Hint: "Use an overprovisioning_factor close to the default 140 (a percentage, not a multiplier).",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			f := a.GetPolicy().GetOverprovisioningFactor()
			if f == nil || f.GetValue() < absurdOPF {
				return
			}
			m := p.Model(cl)
			levels := m.Levels()
			if populated(levels) < 2 && !p.localityWeighted(cl) {
				return
			}
			// The fewest healthy hosts that keep the largest level at 100%.
			n := 0
			for _, l := range levels {
				n = max(n, l.Hosts-l.Excluded)
			}
			k := n
			for k > 1 {
				l := lbmodel.Level{Hosts: n, Healthy: k - 1, OverprovisioningFactor: f.GetValue()}
				if h, _ := l.Availability(); h < 100 {
					break
				}
				k--
			}
			if f.GetValue() >= deliberateOPF {
				// 100x and more: the deliberate "fail over only when none is
				// left" (Consul writes 100000 for that), not a unit slip.
				p.ReportSev(SevInfo, p.Cfg.Sources.ValuePos(a.GetPolicy(), "overprovisioning_factor"),
					"cluster %q: overprovisioning_factor %d (%.0fx) keeps a level of %d hosts at 100%% health with only %d healthy: traffic moves to the next priority only when (nearly) none is left",
					cl.Name(), f.GetValue(), float64(f.GetValue())/100, n, k)
				return
			}
			p.Report(p.Cfg.Sources.ValuePos(a.GetPolicy(), "overprovisioning_factor"),
				"cluster %q: overprovisioning_factor %d (%.0fx) keeps a level of %d hosts at 100%% health with only %d healthy, so it does not fail over",
				cl.Name(), f.GetValue(), float64(f.GetValue())/100, n, k)
		})
	},
})
