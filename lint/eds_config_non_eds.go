package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1115 eds-config-non-eds (ENV-EDS-CONFIG-NON-EDS).
var _ = register(&Rule{
	ID: "LB1115", Name: "eds-config-non-eds", Spec: "ENV-EDS-CONFIG-NON-EDS",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "eds_cluster_config on a cluster whose type is not EDS. ClusterImplBase (upstream_impl.cc) throws " +
		"\"eds_cluster_config set in a non-EDS cluster\".",
	Hint: "Set type: EDS, or remove eds_cluster_config.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetEdsClusterConfig() != nil && (c.GetClusterType() != nil || c.GetType() != clusterv3.Cluster_EDS) {
				p.Report(p.pos(c, "eds_cluster_config"), "cluster %q is not EDS but sets eds_cluster_config", c.GetName())
			}
		}
	},
})
