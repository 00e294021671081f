package lint

// LB1007 locality-weight-zero (PGV-LOCALITY-WEIGHT-ZERO): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1007",
	Name:     "locality-weight-zero",
	Spec:     "PGV-LOCALITY-WEIGHT-ZERO",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A locality with load_balancing_weight 0. LocalityLbEndpoints.load_balancing_weight is {gte: 1}: Envoy rejects the assignment; gRPC silently drops the locality, so its endpoints get no traffic.",
	Hint:     "Give the locality a weight >= 1, or remove it.",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.endpoint.v3.LocalityLbEndpoints", "load_balancing_weight")(v)
	}),
})
