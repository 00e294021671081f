package lint

import (
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
)

// LB1113 lbp-shadows-legacy (ENV-LBP-SHADOWS-LEGACY).
var _ = register(&Rule{
	ID: "LB1113", Name: "lbp-shadows-legacy", Spec: "ENV-LBP-SHADOWS-LEGACY",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "load_balancing_policy set together with legacy LB fields (a non-default lb_policy, lb_subset_config, " +
		"ring_hash_lb_config, maglev_lb_config, least_request_lb_config, round_robin_lb_config). upstream_impl.cc: " +
		"\"If load_balancing_policy is set we will use it directly, ignoring lb_policy\" - the legacy helper is " +
		"never called, so those blocks are dead configuration.",
	Hint: "Move the settings into the typed policy and delete the legacy fields.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLoadBalancingPolicy() == nil {
				continue
			}
			var dead []string
			// An enum that names the policy Envoy takes from the typed list
			// (or CLUSTER_PROVIDED, which control planes write beside a typed
			// policy) changes nothing when ignored: not worth a finding.
			switch lp := c.GetLbPolicy(); {
			case lp == clusterv3.Cluster_ROUND_ROBIN, lp == clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG,
				lp == clusterv3.Cluster_CLUSTER_PROVIDED, lp.String() == p.Model(cl).Policy:
			default:
				dead = append(dead, "lb_policy")
			}
			for _, f := range []string{"lb_subset_config", "ring_hash_lb_config", "maglev_lb_config", "least_request_lb_config", "round_robin_lb_config"} {
				if c.ProtoReflect().Has(c.ProtoReflect().Descriptor().Fields().ByName(protoName(f))) {
					dead = append(dead, f)
				}
			}
			if len(dead) > 0 {
				p.Report(p.pos(c, dead[0]), "cluster %q: load_balancing_policy is set, so %s %s ignored", c.GetName(), strings.Join(dead, ", "), isAre(len(dead)))
			}
		}
	},
})

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
