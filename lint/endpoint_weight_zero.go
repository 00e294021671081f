package lint

// LB1006 endpoint-weight-zero (PGV-ENDPOINT-WEIGHT-ZERO): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1006",
	Name:     "endpoint-weight-zero",
	Spec:     "PGV-ENDPOINT-WEIGHT-ZERO",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "An endpoint with load_balancing_weight 0. LbEndpoint.load_balancing_weight is {gte: 1}: Envoy rejects the assignment; gRPC NACKs it (\"EDS response contains an endpoint with zero weight\"). To drain a host, set its health_status instead.",
	Hint:     "Remove the endpoint or give it weight >= 1; drain with health_status: DRAINING.",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.endpoint.v3.LbEndpoint", "load_balancing_weight")(v)
	}),
})
