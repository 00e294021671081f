package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0010 oneof-conflict: two members of one oneof (load problem config.CodeOneof).
var _ = register(&Rule{
	ID:       "LB0010",
	Name:     "oneof-conflict",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "Two fields of one proto oneof are set. Envoy's JSON parser rejects this (\"oneof field is already set\").",
	Hint:     "Keep only one of the fields.",
	Check:    loadRule(config.CodeOneof),
})
