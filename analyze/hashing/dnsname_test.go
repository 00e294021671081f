package hashing

import (
	"testing"

	"github.com/lbctl/lbctl/lbmodel/hash"
)

// STRICT_DNS hosts without endpoint.hostname are named by the DNS name
// they resolve (StrictDnsClusterImpl::ResolveTarget: hostname_ is the
// endpoint's hostname, else socket_address.address), so with
// use_hostname_for_hashing the ring hashes "a.example_0", "a.example_1", …
// (RingHashLoadBalancer::Ring: key + "_" + i), and an explicit hostname wins.
func TestStrictDNSHostnameHashing(t *testing.T) {
	doc := `name: c
type: STRICT_DNS
lb_policy: RING_HASH
ring_hash_lb_config: {minimum_ring_size: 8, maximum_ring_size: 8}
common_lb_config: {consistent_hashing_lb_config: {use_hostname_for_hashing: true}}
load_assignment:
  cluster_name: c
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: a.example, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: b.example, port_value: 80}}, hostname: named.example}
`
	r := build(t, doc, HashOptions{Dump: true})
	want := map[uint64]string{}
	for i, k := range []string{"a.example", "named.example"} {
		host := []string{"a.example:80", "b.example:80"}[i]
		for n := range 4 {
			want[hash.XXHash64(k+"_"+string(rune('0'+n)))] = host
		}
	}
	if len(r.Ring) != 8 {
		t.Fatalf("ring has %d entries, want 8", len(r.Ring))
	}
	for _, p := range r.Ring {
		if want[p.Hash] != p.Host {
			t.Errorf("ring entry %d on %s, want %q", p.Hash, p.Host, want[p.Hash])
		}
	}
}
