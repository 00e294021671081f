package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0009 unreadable-file: a file that cannot be read (load problem config.CodeIO).
var _ = register(&Rule{
	ID:       "LB0009",
	Name:     "unreadable-file",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "An input path that does not exist or cannot be read.",
	Hint:     "Check the path and permissions.",
	Check:    loadRule(config.CodeIO),
})
