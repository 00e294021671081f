package lint

// LB1203 aggregate-unknown-child (AGG-UNKNOWN-CHILD).
var _ = register(&Rule{
	ID: "LB1203", Name: "aggregate-unknown-child", Spec: "AGG-UNKNOWN-CHILD",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevError},
	Doc: "An aggregate cluster lists a child cluster that is not defined in the loaded configuration. Envoy " +
		"skips it silently (aggregate/cluster.cc linearizePrioritySet: \"refresh: cluster '{}' absent in " +
		"aggregate cluster '{}'\" then continue), so its share of the failover chain disappears; grpc-go " +
		"propagates the child's error and fails every RPC to the aggregate once the does-not-exist timer " +
		"fires. When every child is unknown, LB1204 reports that no host is reachable.",
	Hint: "Fix the child's name, or load the file that defines it.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			for i, ch := range a.children {
				if p.Cfg.Cluster(ch) == nil {
					p.Report(p.childPos(a, i), "aggregate cluster %q: child cluster %q is not defined", a.cl.Name(), ch)
				}
			}
		}
	},
})
