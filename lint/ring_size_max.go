package lint

// LB1001 ring-size-max (PGV-RING-SIZE-MAX): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1001",
	Name:     "ring-size-max",
	Spec:     "PGV-RING-SIZE-MAX",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc:      "A ring hash minimum_ring_size or maximum_ring_size above 8388608 (8M). cluster.proto RingHashLbConfig and ring_hash.proto RingHash declare (validate.rules).uint64 = {lte: 8388608}: Envoy rejects the cluster when it loads it; gRPC (A42) NACKs it too.",
	Hint:     "Use a ring size of at most 8388608; a few entries per host (min 1024) are usually enough.",
	Check: pgvRule(func(v *Violation) bool {
		return (v.Type() == "envoy.config.cluster.v3.Cluster.RingHashLbConfig" || v.Type() == "envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash") &&
			(v.Field == "minimum_ring_size" || v.Field == "maximum_ring_size") && !ringMinZero(v)
	}),
})
