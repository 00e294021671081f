package lint

// LB1104 cluster-provided-no-provider (ENV-CLUSTER-PROVIDED-NO-PROVIDER).
var _ = register(&Rule{
	ID: "LB1104", Name: "cluster-provided-no-provider", Spec: "ENV-CLUSTER-PROVIDED-NO-PROVIDER",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "lb_policy CLUSTER_PROVIDED (or a first typed ClusterProvided policy) on a STATIC, STRICT_DNS, " +
		"LOGICAL_DNS or EDS cluster (or cluster_type envoy.cluster.dns and the other built-in types), which " +
		"bring no load balancer of their own. cluster_manager_impl.cc " +
		"throws \"cluster manager: cluster provided LB specified but cluster '{}' did not provide one\".",
	Hint: "Use a real policy (ROUND_ROBIN, LEAST_REQUEST, RING_HASH...) for this cluster type.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if provides, known := providesLB(c); p.usesClusterProvided(c) && known && !provides {
				typ := c.GetType().String()
				if c.GetClusterType() != nil {
					typ = c.GetClusterType().GetName()
				}
				p.Report(p.pos(c, policyField(c)), "cluster %q (%s) asks for a cluster-provided LB but its type provides none", c.GetName(), typ)
			}
		}
	},
})
