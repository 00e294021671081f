package lint

// LB1105 provider-not-cluster-provided (ENV-PROVIDER-NOT-CLUSTER-PROVIDED).
var _ = register(&Rule{
	ID: "LB1105", Name: "provider-not-cluster-provided", Spec: "ENV-PROVIDER-NOT-CLUSTER-PROVIDED",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "A cluster whose type brings its own load balancer (a cluster_type such as envoy.clusters.aggregate) " +
		"with a policy other than CLUSTER_PROVIDED. cluster_manager_impl.cc throws \"cluster provided LB not " +
		"specified but cluster '{}' provided one.\"; the aggregate, dynamic forward proxy and redis factories " +
		"return their own LB, while envoy.cluster.dns, static, strict/logical DNS and EDS return none " +
		"(ClusterFactoryImplBase::create), and unknown types are not judged. " +
		"(ORIGINAL_DST is LB1101.)",
	Hint: "Set lb_policy: CLUSTER_PROVIDED, or a first load_balancing_policy entry of type ClusterProvided.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if provides, _ := providesLB(c); c.GetClusterType() != nil && provides && !p.usesClusterProvided(c) {
				p.Report(p.pos(c, policyField(c)), "cluster %q has cluster_type %s, which provides its own LB, but its policy is %s",
					c.GetName(), c.GetClusterType().GetName(), policyOf(c))
			}
		}
	},
})
