package lint

import (
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
)

// LB1707 grpc-xdstp-service-name (GRPC-XDSTP-SERVICE-NAME).
var _ = register(&Rule{
	ID: "LB1707", Name: "grpc-xdstp-service-name", Spec: "GRPC-XDSTP-SERVICE-NAME",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "An EDS cluster with an xdstp:// name and no eds_cluster_config.service_name. grpc-go NACKs " +
		"(\"CDS's EDS service name is not set with a new-style cluster name\"), and so does C-core (\"must be " +
		"set if Cluster resource has an xdstp name\"): the EDS resource name cannot be derived from a " +
		"new-style cluster name.",
	Hint: "Set eds_cluster_config.service_name to the xdstp name of the ClusterLoadAssignment.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetClusterType() != nil || c.GetType() != clusterv3.Cluster_EDS || !strings.HasPrefix(c.GetName(), "xdstp:") {
				continue
			}
			if c.GetEdsClusterConfig().GetServiceName() == "" {
				p.Report(p.pos(c, "name"), "cluster %q: gRPC NACKs an xdstp cluster name without eds_cluster_config.service_name", c.GetName())
			}
		}
	},
})
