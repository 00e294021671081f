package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0003 unknown-field: a key the proto does not have (load problem config.CodeUnknownField).
var _ = register(&Rule{
	ID:       "LB0003",
	Name:     "unknown-field",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A key that is not a field of the proto message at that place. Envoy rejects unknown fields in static config (strict validation) unless --allow-unknown-fields; a typo in a load-balancing field means the setting silently does not exist. Outside load-balancing config it is a warning: lbctl does not read that part.",
	Hint:     "Check the spelling against the Envoy v3 API; the message suggests the nearest field name.",
	Check:    loadRule(config.CodeUnknownField),
})
