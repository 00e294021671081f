package lint

import (
	"net/netip"

	"github.com/lbctl/lbctl/analyze/config"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
)

// LB1120 hostname-in-static (ENV-HOSTNAME-IN-STATIC-EDS).
var _ = register(&Rule{
	ID: "LB1120", Name: "hostname-in-static", Spec: "ENV-HOSTNAME-IN-STATIC-EDS",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "A STATIC or EDS endpoint whose socket address is a host name, not an IP literal. These cluster types " +
		"never resolve names: Envoy fails with \"... Consider setting resolver_name or setting cluster type to " +
		"'STRICT_DNS' or 'LOGICAL_DNS'\" (upstream_impl.cc); gRPC (A27) requires IP literals too.",
	Hint: "Use type: STRICT_DNS (or LOGICAL_DNS) for names, or write the IP address.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			c := cl.Proto
			if c.GetClusterType() != nil || (c.GetType() != clusterv3.Cluster_STATIC && c.GetType() != clusterv3.Cluster_EDS) {
				return
			}
			for _, loc := range a.GetEndpoints() {
				for _, ep := range loc.GetLbEndpoints() {
					sa := ep.GetEndpoint().GetAddress().GetSocketAddress()
					if sa == nil || sa.GetResolverName() != "" {
						continue
					}
					if _, err := netip.ParseAddr(sa.GetAddress()); err != nil {
						p.Report(p.Cfg.Sources.ValuePos(sa, "address"), "cluster %q is %s but endpoint address %q is not an IP address", c.GetName(), c.GetType(), sa.GetAddress())
					}
				}
			}
		})
	},
})
