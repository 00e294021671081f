package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1116 logical-dns-shape (ENV-LOGICAL-DNS-SHAPE).
var _ = register(&Rule{
	ID: "LB1116", Name: "logical-dns-shape", Spec: "ENV-LOGICAL-DNS-SHAPE",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "A LOGICAL_DNS cluster whose load_assignment is not exactly one locality with exactly one endpoint. " +
		"The logical DNS cluster resolves one name and connects to the first address: it throws " +
		"\"LOGICAL_DNS clusters must have a single locality_lb_endpoint and a single lb_endpoint\"; gRPC " +
		"(A37) NACKs it as well.",
	Hint: "Use STRICT_DNS for several names, or keep a single endpoint.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetType() != clusterv3.Cluster_LOGICAL_DNS || c.GetClusterType() != nil {
				continue
			}
			eps := c.GetLoadAssignment().GetEndpoints()
			if len(eps) != 1 || len(eps[0].GetLbEndpoints()) != 1 {
				n := 0
				for _, e := range eps {
					n += len(e.GetLbEndpoints())
				}
				// At the first entry too many: the second locality, else the
				// second endpoint.
				pos := p.pos(c, "load_assignment")
				switch la := c.GetLoadAssignment(); {
				case len(eps) > 1:
					pos = p.Cfg.Sources.ElemPos(la, "endpoints", 1)
				case len(eps) == 1 && len(eps[0].GetLbEndpoints()) > 1:
					pos = p.Cfg.Sources.ElemPos(eps[0], "lb_endpoints", 1)
				}
				p.Report(pos, "LOGICAL_DNS cluster %q has %d localities and %d endpoints; it needs exactly one of each", c.GetName(), len(eps), n)
			}
		}
	},
})
