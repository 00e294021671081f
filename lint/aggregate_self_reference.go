package lint

// LB1201 aggregate-self-reference (AGG-SELF-REFERENCE).
var _ = register(&Rule{
	ID: "LB1201", Name: "aggregate-self-reference", Spec: "AGG-SELF-REFERENCE",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "An aggregate cluster that lists itself as a child. Envoy's own priority set for an aggregate is " +
		"empty, so the entry adds no priorities (aggregate/cluster.cc linearizePrioritySet); gRPC's DFS treats " +
		"the revisit as empty (grpc-go test NodeChildOfItself). The entry does nothing, and is usually a typo. Info: traffic is what it would be without the entry.",
	Hint: "Remove the cluster's own name from its clusters list.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			for i, ch := range a.children {
				if ch == a.cl.Name() {
					p.Report(p.childPos(a, i), "aggregate cluster %q lists itself as a child", ch)
				}
			}
		}
	},
})
