package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1705 grpc-eds-config-source (GRPC-EDS-CONFIG-SOURCE).
var _ = register(&Rule{
	ID: "LB1705", Name: "grpc-eds-config-source", Spec: "GRPC-EDS-CONFIG-SOURCE",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "An EDS cluster whose eds_cluster_config.eds_config is neither ads nor self (or is missing). gRPC " +
		"fetches endpoints only over the same xDS stream: A27, grpc-go validateClusterAndConstructClusterUpdate " +
		"and C-core EdsConfigParse NACK with \"EDS config source is not ADS or Self\".",
	Hint: "Set eds_cluster_config.eds_config to {ads: {}} (or {self: {}}).",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetClusterType() != nil || c.GetType() != clusterv3.Cluster_EDS {
				continue
			}
			src := c.GetEdsClusterConfig().GetEdsConfig()
			if src.GetAds() != nil || src.GetSelf() != nil {
				continue
			}
			pos := p.pos(c.GetEdsClusterConfig(), "eds_config")
			if c.GetEdsClusterConfig() == nil || pos.Line == 0 {
				pos = p.pos(c, "type")
			}
			p.Report(pos, "cluster %q: gRPC NACKs an EDS config source that is not ADS or self", c.GetName())
		}
	},
})
