package lint

// LB1204 aggregate-no-leaf (AGG-NO-LEAF).
var _ = register(&Rule{
	ID: "LB1204", Name: "aggregate-no-leaf", Spec: "AGG-NO-LEAF",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "An aggregate cluster through which no host-bearing cluster is reachable. Envoy linearizes only its " +
		"direct children's priority sets and nested aggregates contribute none, so with no defined " +
		"non-aggregate child the linearized set is empty and every pick returns no host (\"no healthy " +
		"upstream\"). gRPC flattens recursively but fails with \"aggregate cluster graph has no leaf clusters\" " +
		"when the DFS finds no EDS or LOGICAL_DNS cluster.",
	Hint: "List at least one defined, non-aggregate cluster as a direct child.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			leaf := false
			for _, ch := range a.children {
				if p.Cfg.Cluster(ch) != nil && !p.isAggregate(ch) {
					leaf = true
				}
			}
			if !leaf && len(a.children) > 0 {
				p.Report(p.pos(a.cl.Proto, "name"), "aggregate cluster %q reaches no host-bearing cluster: every request fails with no healthy upstream", a.cl.Name())
			}
		}
	},
})
