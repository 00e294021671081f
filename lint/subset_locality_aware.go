package lint

// LB1107 subset-locality-aware (ENV-SUBSET-LOCALITY-AWARE).
var _ = register(&Rule{
	ID: "LB1107", Name: "subset-locality-aware", Spec: "ENV-SUBSET-LOCALITY-AWARE",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc: "lb_subset_config.locality_weight_aware without common_lb_config.locality_weighted_lb_config. " +
		"ClusterInfoImpl (upstream_impl.cc) throws \"Locality weight aware subset LB requires that a " +
		"locality_weighted_lb_config be set in {}\".",
	Hint: "Add common_lb_config.locality_weighted_lb_config: {}, or drop locality_weight_aware.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			s := c.GetLbSubsetConfig()
			if s.GetLocalityWeightAware() && c.GetCommonLbConfig().GetLocalityWeightedLbConfig() == nil {
				p.Report(p.pos(s, "locality_weight_aware"), "cluster %q: locality_weight_aware needs common_lb_config.locality_weighted_lb_config", c.GetName())
			}
		}
	},
})
