package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1601 locality-weights-ignored (WGT-LOCALITY-WEIGHTS-IGNORED).
var _ = register(&Rule{
	ID: "LB1601", Name: "locality-weights-ignored", Spec: "WGT-LOCALITY-WEIGHTS-IGNORED",
	// Envoy only: gRPC uses locality weights (gRFC A52 wrr_locality), so
	// for --target grpc they are not ignored and nothing is reported.
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "Localities with load_balancing_weight on a cluster without locality-weighted LB " +
		"(common_lb_config.locality_weighted_lb_config, or a typed policy's locality_lb_config). " +
		"endpoint_components.proto: \"Locality weights are only considered when locality weighted load " +
		"balancing is configured. These weights are ignored otherwise.\" gRPC does use them, so Envoy and gRPC " +
		"split the traffic differently. Typed policies honour them through locality_lb_config (RoundRobin, " +
		"LeastRequest, Random), locality_weighted_lb_config (RingHash, Maglev) or WrrLocality. Only reported " +
		"for a priority with several locality groups whose weights are not in proportion to their endpoints' weights, " +
		"where honouring them would change the split.",
	Hint: "Add common_lb_config.locality_weighted_lb_config: {} if the weights are meant.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			if p.localityWeighted(cl) || p.Model(cl).IsAggregate {
				return
			}
			// Weights only split traffic between groups of one priority: a
			// priority with one locality group takes all its traffic anyway.
			groups := map[uint32]int{}
			for _, loc := range a.GetEndpoints() {
				if len(loc.GetLbEndpoints()) > 0 {
					groups[loc.GetPriority()]++
				}
			}
			// Weights proportional to each group's endpoint weight (e.g. 1:1
			// over one host each) give the split Envoy gives without them.
			if proportionalLocalityWeights(a) {
				return
			}
			for _, loc := range a.GetEndpoints() {
				if loc.GetLoadBalancingWeight() != nil && groups[loc.GetPriority()] > 1 {
					p.Report(p.pos(loc, "load_balancing_weight"), "cluster %q: locality weight %d is ignored: locality weighted load balancing is not configured", cl.Name(), loc.GetLoadBalancingWeight().GetValue())
					return
				}
			}
		})
	},
})

// proportionalLocalityWeights reports whether, in every priority, each
// non-empty group's locality weight is in the same ratio to the sum of its
// endpoints' weights (default 1): honouring the weights would then change
// no host's share while all are healthy.
func proportionalLocalityWeights(a *endpointv3.ClusterLoadAssignment) bool {
	type ratio struct{ lw, hw uint64 }
	first := map[uint32]ratio{}
	for _, g := range a.GetEndpoints() {
		if len(g.GetLbEndpoints()) == 0 {
			continue
		}
		var hw uint64
		for _, e := range g.GetLbEndpoints() {
			w := uint64(1)
			if e.GetLoadBalancingWeight() != nil {
				w = uint64(e.GetLoadBalancingWeight().GetValue())
			}
			hw += w
		}
		r := ratio{uint64(g.GetLoadBalancingWeight().GetValue()), hw}
		if f, ok := first[g.GetPriority()]; !ok {
			first[g.GetPriority()] = r
		} else if r.lw*f.hw != f.lw*r.hw {
			return false
		}
	}
	return true
}
