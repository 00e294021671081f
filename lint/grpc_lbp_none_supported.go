package lint

// LB1703 grpc-lbp-none-supported (GRPC-LBP-NONE-SUPPORTED).
var _ = register(&Rule{
	ID: "LB1703", Name: "grpc-lbp-none-supported", Spec: "GRPC-LBP-NONE-SUPPORTED",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "load_balancing_policy lists no policy gRPC can convert (only Maglev, Random, Subset, " +
		"ClusterProvided, OverrideHost, custom types...; C-core also lacks LeastRequest). A52: an error is " +
		"returned when the registry \"does not find any supported policy in the list\"; grpc-go " +
		"xdslbregistry ConvertToServiceConfig, C-core \"no supported load balancing policy config found\". " +
		"Decided by lbmodel.GRPCSelectPolicy, also inside WrrLocality.endpoint_picking_policy.",
	Hint: "Add a gRPC-supported entry (WrrLocality{RoundRobin}, RingHash with XX_HASH...) after the others.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLoadBalancingPolicy() == nil {
				continue
			}
			if errs := p.grpcPolicyErrors(c, "no supported policy found"); errs != nil {
				p.Report(p.pos(c, "load_balancing_policy"), "cluster %q: %s NACK load_balancing_policy: no entry is a policy gRPC supports", c.GetName(), implList(errs))
			}
		}
	},
})
