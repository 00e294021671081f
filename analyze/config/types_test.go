package config

import (
	"testing"

	dnsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/clusters/dns/v3"
)

// TestDnsClusterLinked: current Envoy's DNS cluster (cluster_type
// envoy.cluster.dns with a DnsCluster) is read, not an unknown type.
func TestDnsClusterLinked(t *testing.T) {
	cfg, err := LoadBytes("dns.yaml", []byte(`name: api
connect_timeout: 1s
cluster_type:
  name: envoy.cluster.dns
  typed_config:
    "@type": type.googleapis.com/envoy.extensions.clusters.dns.v3.DnsCluster
    dns_lookup_family: V4_ONLY
`), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg.Problems {
		t.Errorf("unexpected %s", p.Error())
	}
	tc := cfg.Cluster("api").Proto.GetClusterType().GetTypedConfig()
	if dc, ok := cfg.Sources.Unpacked(tc).(*dnsv3.DnsCluster); !ok || dc.GetDnsLookupFamily().String() != "V4_ONLY" {
		t.Errorf("typed_config = %T, want a DnsCluster with V4_ONLY", cfg.Sources.Unpacked(tc))
	}
}

// TestUnknownLBType: an unknown @type where it decides load balancing has
// its own code; the same unknown type elsewhere (here inside a known LB
// policy's payload) is a plain unknown type.
func TestUnknownLBType(t *testing.T) {
	cfg, _ := LoadBytes("lb.yaml", []byte(`name: api
connect_timeout: 1s
load_balancing_policy:
  policies:
  - typed_extension_config:
      name: custom
      typed_config: {"@type": type.googleapis.com/acme.lb.v1.Custom}
cluster_type:
  name: envoy.cluster.dns
  typed_config:
    "@type": type.googleapis.com/envoy.extensions.clusters.dns.v3.DnsCluster
    typed_dns_resolver_config:
      name: r
      typed_config: {"@type": type.googleapis.com/acme.dns.v1.Resolver}
`), "")
	codes := map[int]string{}
	for _, p := range cfg.Problems {
		codes[p.Pos.Line] = p.Code
	}
	if codes[7] != CodeUnknownLBType || codes[14] != CodeUnknownType || len(codes) != 2 {
		t.Errorf("problems by line = %v, want 7: %s, 14: %s", codes, CodeUnknownLBType, CodeUnknownType)
	}
}
