package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1102 origdst-load-assignment (ENV-ORIGDST-LOAD-ASSIGNMENT).
var _ = register(&Rule{
	ID: "LB1102", Name: "origdst-load-assignment", Spec: "ENV-ORIGDST-LOAD-ASSIGNMENT",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "An ORIGINAL_DST cluster with a load_assignment. Its hosts come from the connections' original " +
		"destinations, never from configuration: original_dst_cluster.cc rejects it with \"ORIGINAL_DST " +
		"clusters must have no load assignment configured\".",
	Hint: "Remove load_assignment from the ORIGINAL_DST cluster.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetType() == clusterv3.Cluster_ORIGINAL_DST && c.GetClusterType() == nil && c.GetLoadAssignment() != nil {
				p.Report(p.pos(c, "load_assignment"), "ORIGINAL_DST cluster %q has a load_assignment", c.GetName())
			}
		}
	},
})
