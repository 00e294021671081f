package lint

// LB0013 unused-suppression: an "# lbctl:ignore ID reason" comment that
// silences nothing. Run reports these itself, after every rule has run.
var _ = register(&Rule{
	ID:       unusedSuppressionID,
	Name:     "unused-suppression",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "An inline suppression (# lbctl:ignore ID reason, on the finding's line or the line above) that " +
		"silences no finding. The problem it was written for is gone or the ID is wrong; left in place it " +
		"would hide a future finding of that rule at that line. Info: it is about lbctl's comments, not about Envoy's traffic.",
	Hint: "Remove the comment, or correct the rule ID it names.",
})
