package lint

import (
	"google.golang.org/protobuf/proto"

	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// LB1711 grpc-ignored-settings (grpc.md §16 divergences).
var _ = register(&Rule{
	ID: "LB1711", Name: "grpc-ignored-settings",
	Severity: map[Target]Severity{TargetGRPC: SevInfo},
	Doc: "Cluster settings Envoy acts on and proxyless gRPC ignores (grpc.md §13 last row and §16, listed by " +
		"lbmodel.EnvoyGRPCDifferences): common_lb_config.healthy_panic_threshold (no panic mode in gRPC), " +
		"zone_aware_lb_config (no zone-aware routing) and active health_checks (gRPC only sees EDS health and " +
		"connectivity). The same config balances differently for Envoy and gRPC clients. Subsets have their " +
		"own rules (LB13xx).",
	Hint: "Nothing to fix for Envoy; do not rely on these settings for gRPC clients.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			clb := c.GetCommonLbConfig()
			checks := []struct {
				t     grpc.ClusterTraits
				msg   proto.Message
				field string
			}{
				{grpc.ClusterTraits{PanicThresholdSet: clb.GetHealthyPanicThreshold() != nil}, clb, "healthy_panic_threshold"},
				{grpc.ClusterTraits{ZoneAware: clb.GetZoneAwareLbConfig() != nil}, clb, "zone_aware_lb_config"},
				{grpc.ClusterTraits{HealthChecks: len(c.GetHealthChecks()) > 0}, c, "health_checks"},
			}
			for _, ch := range checks {
				// Type EDS keeps the STATIC/STRICT_DNS row (LB1701) out.
				ch.t.Type = "EDS"
				for _, d := range grpc.Divergences(ch.t) {
					p.Report(p.pos(ch.msg, ch.field), "cluster %q: %s: Envoy: %s; gRPC: %s", cl.Name(), d.What, d.Envoy, d.GRPC)
				}
			}
		}
	},
})
