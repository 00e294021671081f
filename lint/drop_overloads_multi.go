package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1118 drop-overloads-multi (ENV-DROP-OVERLOADS-MULTI).
var _ = register(&Rule{
	ID: "LB1118", Name: "drop-overloads-multi", Spec: "ENV-DROP-OVERLOADS-MULTI",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc: "A ClusterLoadAssignment policy with more than one drop_overloads entry. endpoint.proto: \"Envoy " +
		"supports only one element and will NACK if more than one element is present\" (gRPC applies them " +
		"in sequence).",
	Hint: "Merge the drop categories into one entry.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			if d := a.GetPolicy().GetDropOverloads(); len(d) > 1 {
				p.Report(p.pos(a.GetPolicy(), "drop_overloads"), "cluster %q: %d drop_overloads entries; Envoy accepts only one", cl.Name(), len(d))
			}
		})
	},
})
