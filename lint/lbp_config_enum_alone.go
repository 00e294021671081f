package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1111 lbp-config-enum-alone (ENV-LBP-CONFIG-ENUM-ALONE).
var _ = register(&Rule{
	ID: "LB1111", Name: "lbp-config-enum-alone", Spec: "ENV-LBP-CONFIG-ENUM-ALONE",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "lb_policy LOAD_BALANCING_POLICY_CONFIG without load_balancing_policy. Envoy throws \"cluster: field " +
		"load_balancing_policy need to be set\". The enum value is deprecated: leave lb_policy unset and use " +
		"load_balancing_policy (grpc-go NACKs the enum even with the field set).",
	Hint: "Drop lb_policy and set load_balancing_policy.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLbPolicy() == clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG && c.GetLoadBalancingPolicy() == nil {
				p.Report(p.pos(c, "lb_policy"), "cluster %q: LOAD_BALANCING_POLICY_CONFIG without load_balancing_policy", c.GetName())
			}
		}
	},
})
