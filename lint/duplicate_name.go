package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0012 duplicate-name: two resources with one name (load problem config.CodeDuplicateName).
var _ = register(&Rule{
	ID:       "LB0012",
	Name:     "duplicate-name",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc:      "Two clusters with the same name. Envoy rejects duplicate static clusters (\"cluster manager: duplicate cluster\"); over CDS the later one replaces the earlier. lbctl keeps the later definition.",
	Hint:     "Rename one of the clusters or remove the duplicate.",
	Check:    loadRule(config.CodeDuplicateName),
})
