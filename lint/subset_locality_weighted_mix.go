package lint

// LB1309 subset-locality-weighted-mix (SUB-LOCALITY-WEIGHTED-MIX).
var _ = register(&Rule{
	ID: "LB1309", Name: "subset-locality-weighted-mix", Spec: "SUB-LOCALITY-WEIGHTED-MIX",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo},
	Doc: "Subset selectors together with locality-weighted LB but without lb_subset_config." +
		"locality_weight_aware. The load-balancing docs: locality weighted LB \"is not compatible with load " +
		"balancer subsetting\"; each subset's LB then ignores locality weights unless locality_weight_aware " +
		"is set (and LB1107's requirement holds).",
	Hint: "Set lb_subset_config.locality_weight_aware: true if subsets should honour locality weights.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			sc := cl.Proto.GetLbSubsetConfig()
			if hasSubsets(cl) && p.localityWeighted(cl) && !sc.GetLocalityWeightAware() {
				p.Report(p.pos(cl.Proto, "lb_subset_config"), "cluster %q: subsets ignore locality weights unless locality_weight_aware is set", cl.Name())
			}
		}
	},
})
