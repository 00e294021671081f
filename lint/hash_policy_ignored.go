package lint

import "github.com/lbctl/lbctl/analyze/model"

// LB1401 hash-policy-ignored (HASH-POLICY-IGNORED).
var _ = register(&Rule{
	ID: "LB1401", Name: "hash-policy-ignored", Spec: "HASH-POLICY-IGNORED",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "A route with hash_policy to a cluster whose LB does not hash (not RING_HASH or MAGLEV). Only the " +
		"hashing load balancers (ThreadAwareLoadBalancerBase) consume the request hash; any other policy " +
		"ignores it, so there is no session affinity.",
	Hint: "Use lb_policy RING_HASH or MAGLEV on the cluster, or remove hash_policy.",
	Check: func(p *Pass) {
		for _, rt := range p.Routes() {
			cl := p.Cfg.Cluster(rt.Cluster)
			if cl == nil || !rt.HasHashPolicy() {
				continue
			}
			m := p.Model(cl)
			if m.IsAggregate || model.IsHashPolicy(m.Policy) {
				continue // aggregates: LB1211
			}
			p.Report(p.pos(rt.Action, "hash_policy"), "route to %q has hash_policy, but the cluster's LB is %s, which ignores the hash", rt.Cluster, m.Policy)
		}
	},
})
