package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1101 origdst-lb-policy (ENV-ORIGDST-LB).
var _ = register(&Rule{
	ID: "LB1101", Name: "origdst-lb-policy", Spec: "ENV-ORIGDST-LB",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "An ORIGINAL_DST cluster with a load-balancing policy other than CLUSTER_PROVIDED. The cluster " +
		"forwards to the connection's original destination, so only its own LB makes sense: " +
		"original_dst_cluster.cc throws \"cluster: LB policy {} is not valid for Cluster type {}. Only " +
		"'CLUSTER_PROVIDED' is allowed with cluster type 'ORIGINAL_DST'\".",
	Hint: "Set lb_policy: CLUSTER_PROVIDED on the ORIGINAL_DST cluster.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetType() == clusterv3.Cluster_ORIGINAL_DST && c.GetClusterType() == nil && !p.usesClusterProvided(c) {
				p.Report(p.pos(c, "lb_policy"), "cluster %q is ORIGINAL_DST but its LB policy is %s; only CLUSTER_PROVIDED is allowed", c.GetName(), policyOf(c))
			}
		}
	},
})
