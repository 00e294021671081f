package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1501 priority-gap (PRI-GAP).
var _ = register(&Rule{
	ID: "LB1501", Name: "priority-gap", Spec: "PRI-GAP",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevError},
	Doc: "Endpoint priorities that skip a level (0 and 2 without 1). endpoint_components.proto: \"Priorities " +
		"should range from 0 (highest) to N (lowest) without skipping\". Envoy keeps an empty level (health 0) " +
		"in the PrioritySet, which never takes traffic: its availability is 0 and, as it has no hosts, it never " +
		"blocks total panic (recalculatePerPriorityPanic), so Envoy behaves as with contiguous priorities (info); gRPC NACKs the assignment (A27, \"priority 1 missing\").",
	Hint: "Renumber the priorities 0..N without gaps.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			present := map[uint32]*endpointv3.LocalityLbEndpoints{}
			var maxP uint32
			for _, loc := range a.GetEndpoints() {
				if _, ok := present[loc.GetPriority()]; !ok {
					present[loc.GetPriority()] = loc
				}
				maxP = max(maxP, loc.GetPriority())
			}
			if maxP > 128 {
				return // LB1008
			}
			for pr := uint32(0); pr < maxP; pr++ {
				if present[pr] == nil {
					// Report at the first locality above the gap.
					for q := pr + 1; q <= maxP; q++ {
						if loc := present[q]; loc != nil {
							p.Report(p.pos(loc, "priority"), "cluster %q has no endpoints at priority %d but has priority %d", cl.Name(), pr, q)
							break
						}
					}
					return
				}
			}
		})
	},
})
