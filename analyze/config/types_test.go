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
