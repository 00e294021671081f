package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0002 duplicate-key: a mapping repeats a key (load problem config.CodeDuplicateKey).
var _ = register(&Rule{
	ID:       "LB0002",
	Name:     "duplicate-key",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "A mapping repeats a key. In YAML Envoy keeps the last value (yaml_utility.cc parseYamlNode assigns " +
		"struct_fields[key] for each pair), and so does lbctl: a warning naming the value Envoy uses when the values " +
		"differ, info when they are the same. In JSON protobuf's parser rejects a field that has already been set " +
		"(json/internal/parser.cc ParseField), so Envoy rejects the file: an error.",
	Hint:  "Remove or merge the repeated key.",
	Check: loadRule(config.CodeDuplicateKey),
})
