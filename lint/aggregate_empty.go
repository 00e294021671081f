package lint

// LB1011 aggregate-empty (PGV-AGG-EMPTY): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1011",
	Name:     "aggregate-empty",
	Spec:     "PGV-AGG-EMPTY",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "An aggregate cluster whose clusters list is empty. aggregate ClusterConfig.clusters is {repeated: {min_items: 1}}: Envoy rejects the cluster; gRPC NACKs it (\"aggregate cluster has empty clusters field\").",
	Hint:     "List the child clusters in priority order, or remove the aggregate.",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.extensions.clusters.aggregate.v3.ClusterConfig", "clusters")(v)
	}),
})
