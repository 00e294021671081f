package lint

// LB1014 typed-lb-required (PGV-TYPED-LB-REQUIRED): reported from go-control-plane's ValidateAll.
var _ = register(&Rule{
	ID:       "LB1014",
	Name:     "typed-lb-required",
	Spec:     "PGV-TYPED-LB-REQUIRED",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A typed load-balancing policy missing a required child: WrrLocality without endpoint_picking_policy, Subset without subset_lb_policy, RandomSubsetting without child_policy or with subset_size 0, OverrideHost without override_host_sources or fallback_policy. The protos under load_balancing_policies/*/v3 mark these {required: true}, {min_items: 1} or {gt: 0}; Envoy rejects the cluster.",
	Hint:     "Add the missing child policy (e.g. endpoint_picking_policy with a client_side_weighted_round_robin entry, the only child Envoy accepts there).",
	Check: pgvRule(func(v *Violation) bool {
		return typedLBRequired[v.Type()]
	}),
})
