package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1208 aggregate-lb-policy-compat (AGG-LB-POLICY-COMPAT).
var _ = register(&Rule{
	ID: "LB1208", Name: "aggregate-lb-policy-compat", Spec: "AGG-LB-POLICY-COMPAT",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "An aggregate cluster whose lb_policy enum gRPC rejects - typically CLUSTER_PROVIDED, which Envoy " +
		"requires (LB1105). grpc-go validateClusterAndConstructClusterUpdate NACKs (\"unexpected lbPolicy " +
		"CLUSTER_PROVIDED\") even when load_balancing_policy is set; C-core NACKs unless load_balancing_policy " +
		"is set (grpc.md §16; lbmodel.GRPCSelectPolicy). The portable form leaves lb_policy unset and lists " +
		"ClusterProvided first, then a gRPC policy, in load_balancing_policy.",
	Hint: "Drop lb_policy and use load_balancing_policy: [ClusterProvided, WrrLocality{RoundRobin}].",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			c := a.cl.Proto
			if c.GetLbPolicy() == clusterv3.Cluster_ROUND_ROBIN {
				continue
			}
			errs := p.grpcPolicyErrors(c, "lbPolicy")
			for k, v := range p.grpcPolicyErrors(c, "LB policy is not supported") {
				if errs == nil {
					errs = map[string]string{}
				}
				errs[k] = v
			}
			if errs != nil {
				p.Report(p.pos(c, "lb_policy"), "aggregate cluster %q: %s NACK lb_policy %s, which Envoy needs as CLUSTER_PROVIDED", c.GetName(), implList(errs), c.GetLbPolicy())
			}
		}
	},
})
