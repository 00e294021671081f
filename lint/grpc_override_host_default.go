package lint

import "github.com/lbctl/lbctl/analyze/model"

// LB1710 grpc-override-host-default (GRPC-OVERRIDE-HOST-DEFAULT).
var _ = register(&Rule{
	ID: "LB1710", Name: "grpc-override-host-default", Spec: "GRPC-OVERRIDE-HOST-DEFAULT",
	Severity: map[Target]Severity{TargetGRPC: SevInfo},
	Doc: "A cluster without common_lb_config.override_host_status while a stateful_session HTTP filter is " +
		"loaded. Unset means [UNKNOWN, HEALTHY, DEGRADED] in Envoy (cluster.proto) but [UNKNOWN, HEALTHY] in " +
		"gRPC (A55, lbmodel.GRPCDefaultOverrideHostStatus), so session cookies that point at DEGRADED hosts " +
		"are honoured by Envoy and not by gRPC.",
	Hint: "Set common_lb_config.override_host_status explicitly.",
	Check: func(p *Pass) {
		if !p.statefulSession() {
			return
		}
		for _, cl := range p.Cfg.Clusters {
			if p.Model(cl).IsAggregate || cl.Proto.GetCommonLbConfig().GetOverrideHostStatus() != nil {
				continue
			}
			p.Report(p.pos(cl.Proto, "name"), "cluster %q: override_host_status is unset: session affinity keeps DEGRADED hosts in Envoy but not in gRPC", cl.Name())
		}
	},
})

// statefulSession reports whether a loaded listener's HTTP connection
// manager runs the envoy.filters.http.stateful_session filter.
func (p *Pass) statefulSession() bool { return len(model.StatefulSessions(p.Cfg)) > 0 }
