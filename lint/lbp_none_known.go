package lint

import "strings"

// LB1112 lbp-none-known (ENV-LBP-NONE-KNOWN).
var _ = register(&Rule{
	ID: "LB1112", Name: "lbp-none-known", Spec: "ENV-LBP-NONE-KNOWN",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "load_balancing_policy lists no policy Envoy implements (only custom or TypedStruct types). Envoy " +
		"takes the first entry it has a factory for; with none, configureLbPolicies (upstream_impl.cc) throws " +
		"\"cluster: didn't find a registered load balancer factory implementation for cluster: '{}' with " +
		"names from [{}]\".",
	Hint: "Add a built-in policy (e.g. RoundRobin) as a fallback entry after the custom one.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			pols := c.GetLoadBalancingPolicy().GetPolicies()
			if len(pols) == 0 {
				continue
			}
			known := false
			var names []string
			for i, m := range p.Typed(c) {
				if m != nil && strings.HasPrefix(string(m.ProtoReflect().Descriptor().FullName()), "envoy.extensions.load_balancing_policies.") {
					known = true
				}
				names = append(names, pols[i].GetTypedExtensionConfig().GetName())
			}
			if !known {
				p.Report(p.pos(c, "load_balancing_policy"), "cluster %q: no load_balancing_policy entry is a policy Envoy implements (%s)", c.GetName(), strings.Join(names, ", "))
			}
		}
	},
})
