package lint

// LB1207 aggregate-duplicate-child (AGG-DUP-CHILD).
var _ = register(&Rule{
	ID: "LB1207", Name: "aggregate-duplicate-child", Spec: "AGG-DUP-CHILD",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "An aggregate cluster lists the same child twice. Envoy keeps the list as a vector and linearizes " +
		"the child's priorities twice, so the second copy only receives spill-over already destined for the " +
		"first; gRPC deduplicates (first occurrence wins, grpc-go IgnoreDups). Failover order differs between " +
		"the two.",
	Hint: "Remove the repeated entry.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			seen := map[string]bool{}
			for i, ch := range a.children {
				if seen[ch] {
					p.Report(p.childPos(a, i), "aggregate cluster %q lists %q more than once", a.cl.Name(), ch)
				}
				seen[ch] = true
			}
		}
	},
})
