package lint

// LB1099 proto-validation: every PGV violation no more specific LB10yy rule
// claimed. It runs after them because rules run in ID order.
var _ = register(&Rule{
	ID:       "LB1099",
	Name:     "proto-validation",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "A protoc-gen-validate constraint of the Envoy API that no more specific rule covers (a required field " +
		"missing, a value out of range, a string too short...). Envoy runs these checks when it loads a " +
		"resource (MessageUtil::validate) and rejects it; lbctl runs go-control-plane's generated ValidateAll " +
		"on clusters, endpoint assignments and route configurations, including the typed configs inside them.",
	Hint: "Change the field to satisfy the constraint in the message; the Envoy API reference lists it.",
	Check: func(p *Pass) {
		for _, v := range p.Violations() {
			if !v.Claimed {
				p.Report(v.Pos, "%s: %s", v.Path, v.Reason)
			}
		}
	},
})
