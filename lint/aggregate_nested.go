package lint

// LB1206 aggregate-nested (AGG-NESTED).
var _ = register(&Rule{
	ID: "LB1206", Name: "aggregate-nested", Spec: "AGG-NESTED",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "An aggregate cluster that lists another aggregate. Envoy's aggregate LB linearizes each child's " +
		"host sets and skips empty ones; an aggregate keeps its hosts inside its LB's private PriorityContext, " +
		"so its own priority set is empty and the inner aggregate contributes nothing " +
		"(aggregate/cluster.{h,cc}). gRPC (A37) flattens nested aggregates recursively: the same config sends " +
		"traffic to different endpoints.",
	Hint: "List the inner aggregate's children directly in the outer one.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			for i, ch := range a.children {
				if ch != a.cl.Name() && p.isAggregate(ch) {
					p.Report(p.childPos(a, i), "aggregate cluster %q lists aggregate %q, whose hosts Envoy does not see (it does not recurse)", a.cl.Name(), ch)
				}
			}
		}
	},
})
