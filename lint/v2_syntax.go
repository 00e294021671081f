package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0006 v2-syntax: v2-era syntax (load problem config.CodeLegacy).
var _ = register(&Rule{
	ID:       "LB0006",
	Name:     "v2-syntax",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc:      "Syntax from the removed v2 API (hosts:, config:, v2 type URLs or enum values). Current Envoy rejects it; lbctl reads it through a translation where it can.",
	Hint:     "Rewrite the field in v3 form as the message says.",
	Check:    loadRule(config.CodeLegacy),
})
