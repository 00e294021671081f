package lint

import (
	"math"

	"github.com/lbctl/lbctl/analyze/config"

	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
)

// LB1119 weight-sum-overflow (ENV-WEIGHT-SUM-OVERFLOW).
var _ = register(&Rule{
	ID: "LB1119", Name: "weight-sum-overflow", Spec: "ENV-WEIGHT-SUM-OVERFLOW",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "Endpoint weights within one locality, or locality weights within one priority, that sum above " +
		"4294967295. endpoint_components.proto requires the sums to fit a uint32; thread_aware_lb_impl.cc " +
		"throws \"The sum of weights of all upstream hosts in a locality exceeds ...\" / \"... of all " +
		"localities at the same priority exceeds ...\"; grpc-go NACKs both.",
	Hint: "Scale the weights down; only their ratios matter.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			perPriority := map[uint32]uint64{}
			reported := map[uint32]bool{}
			for _, loc := range a.GetEndpoints() {
				var sum uint64
				var over config.Pos // the endpoint whose weight passes the limit
				for _, ep := range loc.GetLbEndpoints() {
					w := uint64(1)
					if ep.GetLoadBalancingWeight() != nil {
						w = uint64(ep.GetLoadBalancingWeight().GetValue())
					}
					sum += w
					if sum > math.MaxUint32 && over.File == "" {
						over = p.Cfg.Sources.ValuePos(ep, "load_balancing_weight")
					}
				}
				if sum > math.MaxUint32 {
					p.Report(over, "cluster %q: endpoint weights in this locality sum to %d > 4294967295", cl.Name(), sum)
				}
				pr := loc.GetPriority()
				perPriority[pr] += uint64(loc.GetLoadBalancingWeight().GetValue())
				if perPriority[pr] > math.MaxUint32 && !reported[pr] {
					reported[pr] = true
					p.Report(p.pos(loc, "load_balancing_weight"), "cluster %q: locality weights of priority %d sum to more than 4294967295", cl.Name(), pr)
				}
			}
		})
	},
})
