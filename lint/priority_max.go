package lint

// LB1008 priority-max (PGV-PRIORITY-MAX): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1008",
	Name:     "priority-max",
	Spec:     "PGV-PRIORITY-MAX",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc:      "A locality priority above 128. LocalityLbEndpoints.priority is {lte: 128}; Envoy rejects the assignment.",
	Hint:     "Number priorities 0..N without gaps; N is at most 128.",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.endpoint.v3.LocalityLbEndpoints", "priority")(v)
	}),
})
