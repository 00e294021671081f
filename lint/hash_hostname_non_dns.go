package lint

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	commonv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/common/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	ringhashv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	"google.golang.org/protobuf/proto"
)

// LB1409 hash-hostname-non-dns (HASH-HOSTNAME-NON-DNS).
var _ = register(&Rule{
	ID: "LB1409", Name: "hash-hostname-non-dns", Spec: "HASH-HOSTNAME-NON-DNS",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "use_hostname_for_hashing on a cluster that is not STRICT_DNS. The proto: \"Only valid for StrictDNS " +
		"clusters with hostnames which resolve to a single IP address.\" HashingLoadBalancer::hashKey then " +
		"hashes Host::hostname(), which on STATIC/EDS endpoints is usually empty or shared, so ring and Maglev " +
		"positions collapse. gRPC ignores the field.",
	Hint: "Drop use_hostname_for_hashing, or give each endpoint an envoy.lb hash_key instead.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetClusterType() != nil || c.GetType() == clusterv3.Cluster_STRICT_DNS {
				continue
			}
			var at proto.Message
			if ch := c.GetCommonLbConfig().GetConsistentHashingLbConfig(); ch.GetUseHostnameForHashing() {
				at = ch
			}
			for _, m := range p.Typed(c) {
				var ch *commonv3.ConsistentHashingLbConfig
				switch t := m.(type) {
				case *ringhashv3.RingHash:
					ch = t.GetConsistentHashingLbConfig()
				case *maglevv3.Maglev:
					ch = t.GetConsistentHashingLbConfig()
				}
				if ch.GetUseHostnameForHashing() && at == nil {
					at = ch
				}
			}
			if at != nil {
				p.Report(p.pos(at, "use_hostname_for_hashing"), "cluster %q (%s): use_hostname_for_hashing is only meant for STRICT_DNS clusters", c.GetName(), c.GetType())
			}
		}
	},
})
