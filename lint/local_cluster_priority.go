package lint

import (
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
)

// LB1117 local-cluster-priority (ENV-LOCAL-CLUSTER-PRIORITY).
var _ = register(&Rule{
	ID: "LB1117", Name: "local-cluster-priority", Spec: "ENV-LOCAL-CLUSTER-PRIORITY",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "The cluster named by the bootstrap's cluster_manager.local_cluster_name has endpoints at a " +
		"priority other than 0. Zone-aware routing compares the local cluster's P0 with upstream P0 only, and " +
		"Envoy rejects the assignment: ClusterImplBase::validateEndpointsForZoneAwareRouting / EDS " +
		"\"Unexpected non-zero priority for local cluster '{}'.\"",
	Hint: "Put all endpoints of the local cluster at priority 0.",
	Check: func(p *Pass) {
		local := model.LocalClusterName(p.Cfg, model.Options{})
		cl := p.Cfg.Cluster(local)
		if local == "" || cl == nil {
			return
		}
		p.assignments(func(c *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			if c != cl {
				return
			}
			for _, loc := range a.GetEndpoints() {
				if loc.GetPriority() != 0 {
					p.Report(p.pos(loc, "priority"), "local cluster %q has endpoints at priority %d; Envoy rejects a non-zero priority for the local cluster", local, loc.GetPriority())
					return
				}
			}
		})
	},
})
