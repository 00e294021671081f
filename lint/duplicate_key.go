package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0002 duplicate-key: a mapping repeats a key (load problem config.CodeDuplicateKey).
var _ = register(&Rule{
	ID:       "LB0002",
	Name:     "duplicate-key",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A YAML mapping repeats a key. Envoy's YAML loader rejects duplicate keys (MessageUtil::loadFromYaml, yaml.cc), and other tools keep only one of the values, so what is meant is ambiguous.",
	Hint:     "Remove or merge the repeated key.",
	Check:    loadRule(config.CodeDuplicateKey),
})
