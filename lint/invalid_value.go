package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0011 invalid-value: a value out of its type's range (load problem config.CodeInvalidValue).
var _ = register(&Rule{
	ID:       "LB0011",
	Name:     "invalid-value",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A value that cannot be stored in the field (a negative unsigned integer, an unknown enum name, a number too large, an undecodable typed_config).",
	Hint:     "Use a value the field's type allows.",
	Check:    loadRule(config.CodeInvalidValue),
})
