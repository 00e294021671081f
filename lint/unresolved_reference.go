package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0008 unresolved-reference: a reference to something not loaded (load problem config.CodeReference).
var _ = register(&Rule{
	ID:       "LB0008",
	Name:     "unresolved-reference",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc:      "A resource refers to another by name (an EDS ClusterLoadAssignment to its cluster) and no loaded resource has that name. Info: usually the other resource is just not in the input; nothing in the loaded config sends traffic by it.",
	Hint:     "Add the missing file to the command line, or fix the name.",
	Check:    loadRule(config.CodeReference),
})
