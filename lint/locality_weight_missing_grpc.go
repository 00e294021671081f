package lint

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1603 locality-weight-missing-grpc (WGT-LOCALITY-WEIGHT-MISSING-GRPC).
var _ = register(&Rule{
	ID: "LB1603", Name: "locality-weight-missing-grpc", Spec: "WGT-LOCALITY-WEIGHT-MISSING-GRPC",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "A locality with endpoints but no load_balancing_weight. gRFC A27: \"If the load_balancing_weight " +
		"field is unset, the endpoints entry is skipped\" (grpc-go parseEDSRespProto, C-core LocalityParse), " +
		"so gRPC never sends to those endpoints, and an assignment with only such localities has no endpoints " +
		"at all (TRANSIENT_FAILURE). Envoy without locality-weighted LB serves them normally. (A weight of 0 " +
		"is LB1007.)",
	Hint: "Give every locality a load_balancing_weight (e.g. 1) for gRPC clients.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			if cl.Proto.GetType() != clusterv3.Cluster_EDS || cl.Proto.GetClusterType() != nil {
				return // gRPC reads localities only from EDS clusters
			}
			missing, total := 0, 0
			var first *endpointv3.LocalityLbEndpoints
			for _, loc := range a.GetEndpoints() {
				if len(loc.GetLbEndpoints()) == 0 {
					continue
				}
				total++
				if loc.GetLoadBalancingWeight() == nil {
					missing++
					if first == nil {
						first = loc
					}
				}
			}
			if first == nil {
				return
			}
			pos := p.pos(first, "locality")
			if missing == total {
				p.Report(pos, "cluster %q: no locality has a load_balancing_weight, so gRPC skips them all and has no endpoints", cl.Name())
				return
			}
			p.Report(pos, "cluster %q: gRPC skips %d of %d localities that have no load_balancing_weight, and their endpoints", cl.Name(), missing, total)
		})
	},
})
