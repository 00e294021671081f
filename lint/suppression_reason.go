package lint

const noReasonSuppressionID = "LB0014"

// LB0014 suppression-without-reason: an "# lbctl:ignore ID" comment that
// silences a finding without saying why (golangci-lint's nolintlint
// require-explanation). It still silences; Run reports it itself.
var _ = register(&Rule{
	ID:       noReasonSuppressionID,
	Name:     "suppression-without-reason",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "An inline suppression (# lbctl:ignore ID) that gives no reason after the rule IDs. A suppression " +
		"is a decision someone made; without the reason the next reader cannot tell whether it still holds. Info: it is about lbctl's comments, not about Envoy's traffic.",
	Hint: "Say why after the IDs: # lbctl:ignore LB1203 child defined by the control plane at run time.",
})
