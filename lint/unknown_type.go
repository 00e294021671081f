package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0005 unknown-type: an @type lbctl does not know (load problem config.CodeUnknownType).
var _ = register(&Rule{
	ID:       "LB0005",
	Name:     "unknown-type",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc:      "A typed_config whose @type is not linked into lbctl. Envoy may know it (an extension), but lbctl cannot check its settings. Info: a limit of lbctl, not a rejection or a traffic consequence.",
	Hint:     "Nothing to fix if the extension exists in your Envoy build; otherwise correct the type URL.",
	Check:    loadRule(config.CodeUnknownType),
})
