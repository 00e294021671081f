package lint

// LB1504 panic-with-priorities (PRI-PANIC-MULTI).
var _ = register(&Rule{
	ID: "LB1504", Name: "panic-with-priorities", Spec: "PRI-PANIC-MULTI",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "A cluster with several priorities and an active panic threshold (unset means 50%). Envoy's docs: " +
		"\"In general it is discouraged to use panic thresholds in conjunction with priorities, as by the time " +
		"enough nodes are unhealthy to trigger the panic threshold most of the traffic should already have " +
		"spilled over to the next priority level.\" Panic is per priority (recalculatePerPriorityPanic): a " +
		"half-dead P0 starts sending to its unhealthy hosts instead of failing over.",
	Hint: "Set common_lb_config.healthy_panic_threshold: {value: 0} to rely on priority failover.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			m := p.Model(cl)
			if len(m.Levels()) < 2 || m.PanicThreshold == 0 {
				continue
			}
			how := "the default panic threshold 50%"
			if m.PanicThresholdSet {
				how = "healthy_panic_threshold"
			}
			pos := p.pos(cl.Proto, "name")
			if m.PanicThresholdSet {
				pos = p.pos(cl.Proto.GetCommonLbConfig(), "healthy_panic_threshold")
			}
			p.Report(pos, "cluster %q has %d priorities and %s is active: a degraded P0 panics before traffic fails over", cl.Name(), len(m.Levels()), how)
		}
	},
})
