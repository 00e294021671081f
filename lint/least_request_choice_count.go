package lint

// LB1004 least-request-choice-count (PGV-LR-CHOICE-COUNT): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1004",
	Name:     "least-request-choice-count",
	Spec:     "PGV-LR-CHOICE-COUNT",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc:      "A least-request choice_count below 2. LeastRequestLbConfig and the typed LeastRequest declare choice_count {gte: 2}: Envoy rejects the cluster, and gRPC (A48) NACKs it (\"If choice_count < 2, the config will be rejected\").",
	Hint:     "Set choice_count to 2 (the default) or more.",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.cluster.v3.Cluster.LeastRequestLbConfig", "choice_count")(v) || fieldIs("envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest", "choice_count")(v)
	}),
})
