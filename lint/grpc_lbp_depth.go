package lint

// LB1704 grpc-lbp-depth (GRPC-LBP-DEPTH).
var _ = register(&Rule{
	ID: "LB1704", Name: "grpc-lbp-depth", Spec: "GRPC-LBP-DEPTH",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "A typed load_balancing_policy nested more than 16 levels deep (WrrLocality inside WrrLocality...). " +
		"A52: \"Configurations that require more than 16 levels of recursion are considered invalid\"; grpc-go " +
		"xdslbregistry (depth > 15), C-core kMaxRecursionDepth = 16. Decided by lbmodel.GRPCSelectPolicy.",
	Hint: "Flatten the policy: one WrrLocality around the endpoint-picking policy is enough.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLoadBalancingPolicy() == nil {
				continue
			}
			if errs := p.grpcPolicyErrors(c, "exceeds max depth"); errs != nil {
				p.Report(p.pos(c, "load_balancing_policy"), "cluster %q: %s NACK load_balancing_policy: %s", c.GetName(), implList(errs), firstErr(errs))
			}
		}
	},
})
