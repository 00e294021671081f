package lint

import "github.com/lbctl/lbctl/lbmodel"

// LB1504 panic-with-priorities (PRI-PANIC-MULTI).
var _ = register(&Rule{
	ID: "LB1504", Name: "panic-with-priorities", Spec: "PRI-PANIC-MULTI",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "A cluster with several priorities where a priority that drops just below the panic threshold " +
		"(unset means 50%) would panic instead of failing over, because the other priorities at their stated " +
		"health cannot take its traffic. Envoy never puts a priority in panic while the normalized total " +
		"availability is 100 (LoadBalancerBase::recalculatePerPriorityPanic), so with healthy lower priorities " +
		"a degraded level simply spills over; only when they are short too does the panicking level send " +
		"traffic to its unhealthy hosts. Computed with lbmodel.ComputePriorityLoad, as explain does.",
	Hint: "Restore the other priorities' capacity, or set common_lb_config.healthy_panic_threshold: {value: 0} to rely on priority failover.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			m := p.Model(cl)
			levels := m.Levels()
			if m.IsAggregate || populated(levels) < 2 || m.PanicThreshold == 0 {
				continue
			}
			now := lbmodel.ComputePriorityLoad(levels, m.PanicThreshold)
			for i := range levels {
				if now.Levels[i].Panic { // already in panic: LB1901 says so
					continue
				}
				sim, ok := belowThreshold(levels, i, m.PanicThreshold)
				if !ok {
					continue
				}
				pl := lbmodel.ComputePriorityLoad(sim, m.PanicThreshold)
				// A panicking level that gets no load sends nothing to its
				// unhealthy hosts (e.g. the last level with every host down).
				if !pl.Levels[i].Panic || pl.Levels[i].HealthyLoad+pl.Levels[i].DegradedLoad == 0 {
					continue
				}
				pos := p.pos(cl.Proto, "name")
				if m.PanicThresholdSet {
					pos = p.pos(cl.Proto.GetCommonLbConfig(), "healthy_panic_threshold")
				}
				p.Report(pos, "cluster %q: if P%d drops below the %d%% panic threshold it panics instead of failing over: the priorities at their stated health reach only %d%% normalized availability",
					cl.Name(), i, m.PanicThreshold, pl.NormalizedTotalAvailability)
				break
			}
		}
	},
})

// populated counts levels that have hosts.
func populated(levels []lbmodel.Level) int {
	n := 0
	for _, l := range levels {
		if l.Hosts > l.Excluded {
			n++
		}
	}
	return n
}

// belowThreshold returns levels with level i degraded to the most healthy
// hosts that still put it strictly below threshold (isHostSetInPanic), the
// others as stated; false when level i has no counted hosts or cannot get
// below the threshold.
func belowThreshold(levels []lbmodel.Level, i, threshold int) ([]lbmodel.Level, bool) {
	l := levels[i]
	counted := l.Hosts - l.Excluded
	if counted <= 0 {
		return nil, false
	}
	// Largest h with 100*h/counted < threshold.
	h := (threshold*counted+99)/100 - 1
	if h < 0 {
		return nil, false
	}
	sim := append([]lbmodel.Level(nil), levels...)
	l.Healthy, l.Degraded = h, 0
	if l.WeightedPriorityHealth {
		l.HealthyWeight = (l.TotalWeight - l.ExcludedWeight) * uint64(h) / uint64(counted)
		l.DegradedWeight = 0
	}
	sim[i] = l
	return sim, true
}
