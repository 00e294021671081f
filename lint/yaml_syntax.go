package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0001 yaml-syntax: the file is not valid YAML or JSON (load problem config.CodeSyntax).
var _ = register(&Rule{
	ID:       "LB0001",
	Name:     "yaml-syntax",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A file lbctl cannot parse as YAML/JSON. Envoy would refuse to load it; nothing in the file is checked further.",
	Hint:     "Fix the syntax at the reported position (indentation, quotes, brackets).",
	Check:    loadRule(config.CodeSyntax),
})
