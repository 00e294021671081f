package lint

// LB1012 outlier-range (PGV-OUTLIER-RANGE): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1012",
	Name:     "outlier-range",
	Spec:     "PGV-OUTLIER-RANGE",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "An outlier_detection percentage above 100 or a zero interval/ejection time. outlier_detection.proto declares the enforcing_* and *_percent fields {lte: 100} and the durations {gt: 0s}; Envoy rejects the cluster, gRPC (A50) NACKs the percentages.",
	Hint:     "Keep percentages within 0..100 and durations positive.",
	Check: pgvRule(func(v *Violation) bool {
		return v.Type() == "envoy.config.cluster.v3.OutlierDetection"
	}),
})
