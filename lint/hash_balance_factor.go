package lint

// LB1005 hash-balance-factor (PGV-HASH-BALANCE-FACTOR): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1005",
	Name:     "hash-balance-factor",
	Spec:     "PGV-HASH-BALANCE-FACTOR",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc:      "A consistent_hashing_lb_config.hash_balance_factor below 100. ConsistentHashingLbConfig (cluster.proto and common.proto) declares hash_balance_factor {gte: 100}: bounded load is expressed as a percentage of the average load, so 100 is the tightest bound. Envoy rejects the cluster; gRPC ignores the field.",
	Hint:     "Use hash_balance_factor 100 or more (e.g. 150 lets a host take 1.5x the average).",
	Check: pgvRule(func(v *Violation) bool {
		return fieldIs("envoy.config.cluster.v3.Cluster.CommonLbConfig.ConsistentHashingLbConfig", "hash_balance_factor")(v) || fieldIs("envoy.extensions.load_balancing_policies.common.v3.ConsistentHashingLbConfig", "hash_balance_factor")(v)
	}),
})
