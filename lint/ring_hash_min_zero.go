package lint

// LB1002 ring-hash-min-zero (PGV-RINGHASH-MIN-ZERO): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1002",
	Name:     "ring-hash-min-zero",
	Spec:     "PGV-RINGHASH-MIN-ZERO",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc:      "A typed RingHash policy with minimum_ring_size 0. ring_hash.proto constrains it to {gte: 1, lte: 8388608} (Envoy's ring_hash tests expect \"value must be inside range [1, 8388608]\"); C-core NACKs it, grpc-go treats it as unset.",
	Hint:     "Leave minimum_ring_size unset (1024) or set it to at least 1.",
	Check: pgvRule(func(v *Violation) bool {
		return ringMinZero(v)
	}),
})
