package lint

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// LB1508 degraded-endpoints (PRI-DEGRADED-ENDPOINTS).
var _ = register(&Rule{
	ID: "LB1508", Name: "degraded-endpoints", Spec: "PRI-DEGRADED-ENDPOINTS",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "Endpoints with EDS health_status DEGRADED. Envoy marks them DEGRADED_EDS_HEALTH: they form the " +
		"degraded tier, used only when healthy capacity is short (priority.md §1.1). gRPC keeps only " +
		"HEALTHY and UNKNOWN endpoints (grpc-go configbuilder, C-core XdsHealthStatus; " +
		"lbmodel.GRPCKeepsEndpoint), so DEGRADED hosts never receive gRPC traffic. Reported once per cluster.",
	Hint: "Nothing to fix if intended; gRPC clients will not use these endpoints.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			for _, loc := range a.GetEndpoints() {
				for _, ep := range loc.GetLbEndpoints() {
					if ep.GetHealthStatus() != corev3.HealthStatus_DEGRADED {
						continue
					}
					if p.Target == TargetGRPC && !grpc.KeepsEndpoint(lbmodel.HealthStatus(ep.GetHealthStatus())) {
						p.Report(p.pos(ep, "health_status"), "cluster %q: DEGRADED endpoints are dropped by gRPC", cl.Name())
					} else {
						p.Report(p.pos(ep, "health_status"), "cluster %q: DEGRADED endpoints are used by Envoy only when healthy hosts are short", cl.Name())
					}
					return
				}
			}
		})
	},
})
