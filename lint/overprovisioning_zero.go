package lint

// LB1009 overprovisioning-zero (PGV-OVERPROVISIONING-ZERO): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1009",
	Name:     "overprovisioning-zero",
	Spec:     "PGV-OVERPROVISIONING-ZERO",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc:      "A ClusterLoadAssignment policy.overprovisioning_factor of 0. endpoint.proto declares it {gt: 0}: every level's health would be 0, so Envoy rejects the assignment.",
	Hint:     "Leave overprovisioning_factor unset (140) or set it to 100 or more.",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.endpoint.v3.ClusterLoadAssignment.Policy", "overprovisioning_factor")(v)
	}),
})
