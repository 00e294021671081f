package lint

// LB1106 subset-cluster-provided (ENV-SUBSET-CLUSTER-PROVIDED).
var _ = register(&Rule{
	ID: "LB1106", Name: "subset-cluster-provided", Spec: "ENV-SUBSET-CLUSTER-PROVIDED",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "lb_subset_config on a cluster whose policy is CLUSTER_PROVIDED (aggregate, ORIGINAL_DST...). The " +
		"subset LB wraps a policy Envoy builds itself, which a cluster-provided LB is not: Envoy throws " +
		"\"cluster: LB policy CLUSTER_PROVIDED cannot be combined with lb_subset_config\" " +
		"(ClusterManagerImplTest.SubsetLoadBalancerClusterProvidedLbRestriction).",
	Hint: "Remove lb_subset_config, or configure subsets on the child clusters.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLbSubsetConfig() != nil && c.GetLoadBalancingPolicy() == nil && p.usesClusterProvided(c) {
				p.Report(p.pos(c, "lb_subset_config"), "cluster %q combines CLUSTER_PROVIDED with lb_subset_config", c.GetName())
			}
		}
	},
})
