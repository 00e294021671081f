package lint

// LB1305 subset-empty-selectors (SUB-EMPTY-SELECTORS).
var _ = register(&Rule{
	ID: "LB1305", Name: "subset-empty-selectors", Spec: "SUB-EMPTY-SELECTORS",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo},
	Doc: "lb_subset_config without subset_selectors. upstream_impl.cc LegacyLbPolicyConfigHelper: \"it is " +
		"possible to have a lb_subset_config without actually having any subset selectors. In this case the " +
		"subset load balancer should not be used.\" fallback_policy, default_subset and the other settings are " +
		"dead config.",
	Hint: "Add subset_selectors, or remove lb_subset_config.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			sc := cl.Proto.GetLbSubsetConfig()
			if sc != nil && len(sc.GetSubsetSelectors()) == 0 && cl.Proto.GetLoadBalancingPolicy() == nil {
				p.Report(p.pos(cl.Proto, "lb_subset_config"), "cluster %q: lb_subset_config has no subset_selectors, so the subset load balancer is not used", cl.Name())
			}
		}
	},
})
