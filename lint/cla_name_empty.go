package lint

// LB1015 cla-name-empty (PGV-CLA-NAME): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1015",
	Name:     "cla-name-empty",
	Spec:     "PGV-CLA-NAME",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A ClusterLoadAssignment with an empty cluster_name. ClusterLoadAssignment.cluster_name is {min_len: 1} (also for a cluster's inline load_assignment); Envoy rejects it, and EDS could not match it to a cluster anyway.",
	Hint:     "Set cluster_name to the cluster's name (or its eds_cluster_config.service_name).",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.endpoint.v3.ClusterLoadAssignment", "cluster_name")(v)
	}),
})
