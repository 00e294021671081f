package lint

// LB1003 maglev-table-max (PGV-MAGLEV-TABLE-MAX): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1003",
	Name:     "maglev-table-max",
	Spec:     "PGV-MAGLEV-TABLE-MAX",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc:      "A Maglev table_size above 5000011. cluster.proto MaglevLbConfig and maglev.proto Maglev declare table_size {lte: 5000011}; Envoy rejects the cluster.",
	Hint:     "Use a prime table size of at most 5000011 (the default is 65537).",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.cluster.v3.Cluster.MaglevLbConfig", "table_size")(v) || fieldIs("envoy.extensions.load_balancing_policies.maglev.v3.Maglev", "table_size")(v)
	}),
})
