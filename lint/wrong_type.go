package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0004 wrong-type: a value of the wrong type (load problem config.CodeType).
var _ = register(&Rule{
	ID:       "LB0004",
	Name:     "wrong-type",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A value whose YAML type does not fit the proto field (a list for a message, a string for an integer, ...). Envoy's JSON-to-proto conversion rejects it.",
	Hint:     "Write the value with the type the field has in the Envoy v3 API.",
	Check:    loadRule(config.CodeType),
})
