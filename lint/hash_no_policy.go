package lint

import "github.com/lbctl/lbctl/analyze/model"

// LB1402 hash-no-policy (HASH-NO-POLICY).
var _ = register(&Rule{
	ID: "LB1402", Name: "hash-no-policy", Spec: "HASH-NO-POLICY",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "A RING_HASH or MAGLEV cluster that routes reach without any hash_policy, and which sets no " +
		"cluster-level consistent_hashing_lb_config.hash_policy. thread_aware_lb_impl.cc: \"If there is no " +
		"hash in the context, just choose a random value\" - the LB behaves as RANDOM. Only judged when some " +
		"loaded route targets the cluster.",
	Hint: "Add a hash_policy (header, cookie, source IP...) to the routes, or use a non-hashing policy.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if !model.IsHashPolicy(p.Model(cl).Policy) || clusterHashPolicy(p, cl.Proto) {
				continue
			}
			routes := p.RoutesTo(cl.Name())
			if len(routes) == 0 {
				continue
			}
			hashed := false
			for _, rt := range routes {
				hashed = hashed || rt.HasHashPolicy()
			}
			if !hashed {
				p.Report(p.pos(cl.Proto, policyField(cl.Proto)), "cluster %q hashes requests, but no route to it has a hash_policy: every pick is random", cl.Name())
			}
		}
	},
})
