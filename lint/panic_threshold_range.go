package lint

import "strings"

// LB1010 panic-threshold-range (PGV-PANIC-RANGE): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1010",
	Name:     "panic-threshold-range",
	Spec:     "PGV-PANIC-RANGE",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc:      "A common_lb_config.healthy_panic_threshold outside [0, 100]. type.v3.Percent.value is {gte: 0, lte: 100}; Envoy rejects the cluster.",
	Hint:     "Use a percentage between 0 (panic mode disabled) and 100; the default is 50.",
	Check: pgvRule(func(v *Violation) bool {
		return v.Type() == "envoy.type.v3.Percent" && strings.Contains(v.Path, "healthy_panic_threshold")
	}),
})
