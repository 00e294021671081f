package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0001 yaml-syntax: the file is not valid YAML or JSON (load problem config.CodeSyntax),
// or, as info, it holds template placeholders (analyze/config/template.go).
var _ = register(&Rule{
	ID:       "LB0001",
	Name:     "yaml-syntax",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "A file lbctl cannot parse as YAML/JSON: an error. Envoy would refuse to load it; nothing in the file is " +
		"checked further. A file holding template placeholders ({{ ... }}, ${VAR}) gets one info notice instead, at the " +
		"first placeholder: lbctl reads each as an unknown value and reports nothing that depends on one. The hint is " +
		"for the error; for the notice, check the rendered file.",
	Hint:  "Fix the syntax at the reported position (indentation, quotes, brackets).",
	Check: loadRule(config.CodeSyntax),
})
