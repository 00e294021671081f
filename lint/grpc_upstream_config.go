package lint

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// LB1708 grpc-upstream-config (GRPC-UPSTREAM-CONFIG).
var _ = register(&Rule{
	ID: "LB1708", Name: "grpc-upstream-config", Spec: "GRPC-UPSTREAM-CONFIG",
	Severity: map[Target]Severity{TargetGRPC: SevError, TargetEnvoy: SevWarning},
	Doc: "Cluster.upstream_config means different things to Envoy and gRPC. gRPC C-core (A75, " +
		"xds_cluster_parser ParseUpstreamConfig) reads it for the session-affinity idle_timeout and NACKs the " +
		"cluster unless it holds envoy.extensions.upstreams.http.v3.HttpProtocolOptions with a valid " +
		"idle_timeout (grpc-go ignores the field); validated by lbmodel.GRPCSessionIdleTimeout. Envoy expects " +
		"a generic connection-pool factory there, so HttpProtocolOptions in upstream_config is a warning for " +
		"Envoy [inferred]: protocol options belong in typed_extension_protocol_options.",
	Hint: "For gRPC use HttpProtocolOptions; for Envoy put protocol options in typed_extension_protocol_options.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			uc := c.GetUpstreamConfig()
			if uc == nil {
				continue
			}
			in := model.IdleTimeoutInput(c)
			holdsHTTPOptions := config.TypeName(in.TypeURL) == "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"
			_, err := grpc.SessionIdleTimeout(in)
			switch {
			case p.Target == TargetGRPC && err != nil:
				p.Report(p.pos(c, "upstream_config"), "cluster %q: grpc-core NACKs upstream_config: %v", c.GetName(), err)
			case p.Target == TargetEnvoy && holdsHTTPOptions:
				p.Report(p.pos(c, "upstream_config"), "cluster %q: upstream_config holds HttpProtocolOptions (gRPC's idle_timeout); Envoy expects a connection pool factory here", c.GetName())
			}
		}
	},
})
