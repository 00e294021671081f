package lint

// LB1701 grpc-cluster-type (GRPC-CLUSTER-TYPE).
var _ = register(&Rule{
	ID: "LB1701", Name: "grpc-cluster-type", Spec: "GRPC-CLUSTER-TYPE",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "A cluster whose discovery type proxyless gRPC does not support: STATIC (also the default when " +
		"neither type nor cluster_type is set), STRICT_DNS, ORIGINAL_DST, or a cluster_type other than " +
		"envoy.clusters.aggregate. gRPC accepts only EDS, LOGICAL_DNS and aggregate (A27/A37); grpc-go " +
		"validateClusterAndConstructClusterUpdate NACKs with \"unsupported cluster type\", C-core " +
		"xds_cluster_parser with \"unknown discovery type\".",
	Hint: "Serve this cluster to gRPC clients as EDS (or LOGICAL_DNS for one DNS name).",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if _, ok := grpcKind(c); ok {
				continue
			}
			if ct := c.GetClusterType(); ct != nil {
				p.Report(p.pos(c, "cluster_type"), "cluster %q: gRPC NACKs cluster_type %q (only envoy.clusters.aggregate is supported)", c.GetName(), ct.GetName())
				continue
			}
			pos := p.pos(c, "type")
			if pos.Line == 0 {
				pos = p.pos(c, "name")
			}
			p.Report(pos, "cluster %q: gRPC NACKs discovery type %s (only EDS, LOGICAL_DNS and aggregate are supported)", c.GetName(), c.GetType())
		}
	},
})
