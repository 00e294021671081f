package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1605 duplicate-address (WGT-DUP-ADDRESS).
var _ = register(&Rule{
	ID: "LB1605", Name: "duplicate-address", Spec: "WGT-DUP-ADDRESS",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevError},
	Doc: "The same endpoint address listed twice in one assignment (across localities and priorities). Envoy " +
		"keeps only the first (eds.cc updateLocalityEndpoints: its weight, locality and priority win); gRPC " +
		"NACKs the assignment (A27, \"duplicate endpoint with the same address\").",
	Hint: "List each address once.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			seen := map[string]bool{}
			for _, loc := range a.GetEndpoints() {
				for _, ep := range loc.GetLbEndpoints() {
					addr := ep.GetEndpoint().GetAddress()
					if addr == nil {
						continue
					}
					s := config.FormatAddress(addr)
					if seen[s] {
						p.Report(p.pos(ep, "endpoint"), "cluster %q lists %s more than once; Envoy keeps only the first", cl.Name(), s)
					}
					seen[s] = true
				}
			}
		})
	},
})
