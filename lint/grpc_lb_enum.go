package lint

// LB1702 grpc-lb-enum (GRPC-LB-ENUM).
var _ = register(&Rule{
	ID: "LB1702", Name: "grpc-lb-enum", Spec: "GRPC-LB-ENUM",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "An lb_policy enum gRPC does not support. grpc-go (xdsresource/unmarshal_cds.go " +
		"validateClusterAndConstructClusterUpdate) accepts only ROUND_ROBIN, RING_HASH and LEAST_REQUEST and " +
		"NACKs any other value (\"unexpected lbPolicy\") even when load_balancing_policy is also set; C-core " +
		"(xds_cluster_parser.cc ParseLbPolicyConfig) also rejects LEAST_REQUEST, but ignores the enum when " +
		"load_balancing_policy is present. Decided by lbmodel.GRPCSelectPolicy. Aggregate clusters are " +
		"reported by LB1208.",
	Hint: "Leave lb_policy unset (ROUND_ROBIN) and put the policy in load_balancing_policy.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if p.Model(cl).IsAggregate {
				continue // LB1208
			}
			errs := p.grpcPolicyErrors(c, "lbPolicy")
			for k, v := range p.grpcPolicyErrors(c, "LB policy is not supported") {
				if errs == nil {
					errs = map[string]string{}
				}
				errs[k] = v
			}
			if errs != nil {
				p.Report(p.pos(c, "lb_policy"), "cluster %q: %s NACK lb_policy %s (%s)", c.GetName(), implList(errs), c.GetLbPolicy(), firstErr(errs))
			}
		}
	},
})
