package lint

import (
	"net/netip"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/model"
)

// LB1413 hash-hostname-dns-shared: lbctl's own rule.
var _ = register(&Rule{
	ID: "LB1413", Name: "hash-hostname-dns-shared",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "use_hostname_for_hashing on a STRICT_DNS cluster whose endpoint is a DNS name. StrictDnsClusterImpl " +
		"(strict_dns_cluster.cc) makes one host per address the name resolves to, each with the same hostname " +
		"(endpoint.hostname, else the DNS name), and HashingLoadBalancer::hashKey hashes that hostname, so every " +
		"address of the name gets the same ring points or Maglev preferences: one of them takes every hash the " +
		"others would get, and they share no load. A name with one address, or a LOGICAL_DNS cluster (one host " +
		"per endpoint), is unaffected.",
	Hint: "Hash by address (drop use_hostname_for_hashing), or list each backend as its own endpoint with its own hostname.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetType() != clusterv3.Cluster_STRICT_DNS || c.GetClusterType() != nil || !model.IsHashPolicy(p.Model(cl).Policy) {
				continue
			}
			at := hostnameHashing(p, c)
			if at == nil || cl.Assignment == nil {
				continue
			}
			if name, ep := dnsEndpoint(cl.Assignment); ep != nil {
				p.Report(p.pos(at, "use_hostname_for_hashing"), "cluster %q hashes hostnames, and STRICT_DNS gives every address %q resolves to the same hostname: they get the same hash positions, so one address takes all their hashes", cl.Name(), name)
			}
		}
	},
})

// dnsEndpoint is the first endpoint whose address is a DNS name, and the
// hostname its resolved hosts share.
func dnsEndpoint(a *endpointv3.ClusterLoadAssignment) (string, *endpointv3.LbEndpoint) {
	for _, loc := range a.GetEndpoints() {
		for _, ep := range loc.GetLbEndpoints() {
			sa := ep.GetEndpoint().GetAddress().GetSocketAddress()
			if sa == nil {
				continue
			}
			if _, err := netip.ParseAddr(sa.GetAddress()); err == nil {
				continue
			}
			name := ep.GetEndpoint().GetHostname()
			if name == "" {
				name = sa.GetAddress()
			}
			return name, ep
		}
	}
	return "", nil
}
