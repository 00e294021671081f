package lint

// LB1013 drop-category-empty (PGV-DROP-CATEGORY): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1013",
	Name:     "drop-category-empty",
	Spec:     "PGV-DROP-CATEGORY",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc:      "A drop_overloads entry with an empty category. DropOverload.category is {min_len: 1}; Envoy rejects the assignment, C-core NACKs it (\"empty drop category name\").",
	Hint:     "Name the drop category (it labels the drop statistics).",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.endpoint.v3.ClusterLoadAssignment.Policy.DropOverload", "category")(v)
	}),
})
