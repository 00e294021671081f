package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
)

// LB1605 duplicate-address (WGT-DUP-ADDRESS).
var _ = register(&Rule{
	ID: "LB1605", Name: "duplicate-address", Spec: "WGT-DUP-ADDRESS",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevError},
	Doc: "The same endpoint address listed twice in one assignment (across localities and priorities). Only EDS " +
		"de-duplicates: EdsClusterImpl::BatchUpdateHelper::updateLocalityEndpoints (eds.cc) keeps the first, so the " +
		"later entries never receive traffic (warning; explain drops them too, model.DedupesHosts). A STATIC cluster keeps every entry " +
		"(StaticClusterImpl registers each lb_endpoint with registerHostForPriority), as do STRICT_DNS targets, so " +
		"the address is several hosts and receives their shares together (info). gRPC NACKs the assignment (A27, " +
		"\"duplicate endpoint with the same address\").",
	Hint: "List each address once.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			dedup := p.Target == TargetGRPC || model.DedupesHosts(cl.Proto)
			seen := map[string]bool{}
			for _, loc := range a.GetEndpoints() {
				for _, ep := range loc.GetLbEndpoints() {
					addr := ep.GetEndpoint().GetAddress()
					if addr == nil {
						continue
					}
					s := config.FormatAddress(addr)
					switch {
					case !seen[s]:
					case p.Target == TargetGRPC:
						p.Report(p.pos(ep, "endpoint"), "cluster %q lists %s more than once; gRPC rejects the assignment", cl.Name(), s)
					case dedup:
						p.Report(p.pos(ep, "endpoint"), "cluster %q lists %s more than once; Envoy's EDS keeps only the first, so this entry never receives traffic", cl.Name(), s)
					default:
						p.ReportSev(SevInfo, p.pos(ep, "endpoint"), "cluster %q lists %s more than once; a %s cluster keeps every entry, so the address receives the shares of all of them", cl.Name(), s, cl.Proto.GetType())
					}
					seen[s] = true
				}
			}
		})
	},
})
