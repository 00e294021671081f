package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1114 lb-config-mismatch (ENV-LB-CONFIG-MISMATCH).
var _ = register(&Rule{
	ID: "LB1114", Name: "lb-config-mismatch", Spec: "ENV-LB-CONFIG-MISMATCH",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "An lb_config block that does not match lb_policy: ring_hash_lb_config without RING_HASH, " +
		"maglev_lb_config without MAGLEV, least_request_lb_config without LEAST_REQUEST, round_robin_lb_config " +
		"without ROUND_ROBIN, original_dst_lb_config on a non-ORIGINAL_DST cluster. Envoy's legacy config " +
		"readers only read the block of the active policy, so the block is silently ignored (cluster.proto " +
		"says such mismatches are errors). Info: the ignored block changes no traffic (Envoy loads the cluster and uses lb_policy).",
	Hint: "Remove the block or change lb_policy to the policy it configures.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLoadBalancingPolicy() != nil {
				continue // LB1113 reports the legacy blocks as dead
			}
			pol := c.GetLbPolicy()
			check := func(set bool, field string, want clusterv3.Cluster_LbPolicy) {
				if set && pol != want {
					p.Report(p.pos(c, field), "cluster %q: %s is ignored: lb_policy is %s, not %s", c.GetName(), field, pol, want)
				}
			}
			check(c.GetRingHashLbConfig() != nil, "ring_hash_lb_config", clusterv3.Cluster_RING_HASH)
			check(c.GetMaglevLbConfig() != nil, "maglev_lb_config", clusterv3.Cluster_MAGLEV)
			check(c.GetLeastRequestLbConfig() != nil, "least_request_lb_config", clusterv3.Cluster_LEAST_REQUEST)
			check(c.GetRoundRobinLbConfig() != nil, "round_robin_lb_config", clusterv3.Cluster_ROUND_ROBIN)
			if c.GetOriginalDstLbConfig() != nil && c.GetType() != clusterv3.Cluster_ORIGINAL_DST {
				p.Report(p.pos(c, "original_dst_lb_config"), "cluster %q: original_dst_lb_config is ignored: the cluster is not ORIGINAL_DST", c.GetName())
			}
		}
	},
})
