package hashing

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

func ringDoc(prio int, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: c\ntype: STATIC\nlb_policy: RING_HASH\nring_hash_lb_config: {minimum_ring_size: 4, maximum_ring_size: 4}\nload_assignment:\n  cluster_name: c\n  endpoints:\n  - priority: %d\n    lb_endpoints:\n", prio)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    - endpoint: {address: {socket_address: {address: 10.0.0.%d, port_value: 80}}}\n", i)
	}
	return b.String()
}

func build(t *testing.T, doc string, opt HashOptions) *HashReport {
	t.Helper()
	cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(cfg, cfg.Cluster("c"), opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A 4-entry ring over 8 hosts leaves hosts without an entry
// (RingHashLoadBalancer::Ring: ring size min(max, max(min, hosts·scale)));
// that is a result, and the JSON must encode (it used to hold +Inf).
func TestStarvedHostsEncode(t *testing.T) {
	r := build(t, ringDoc(0, 8), HashOptions{})
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
	if p := r.Priorities[0]; p.Starved != 4 || p.Size != 4 {
		t.Errorf("starved %d size %d, want 4 and 4", p.Starved, p.Size)
	}
}

// With P0 empty, ring_size and --dump describe the first level that has a
// ring, and every level carries its own ring with --dump.
func TestRingSizeSkipsEmptyP0(t *testing.T) {
	r := build(t, ringDoc(1, 2), HashOptions{Dump: true})
	if r.RingSize == nil || *r.RingSize != 4 || len(r.Ring) != 4 {
		t.Fatalf("ring_size %v, %d ring entries; want 4 and 4", r.RingSize, len(r.Ring))
	}
	if len(r.Priorities) != 2 || len(r.Priorities[0].Ring) != 0 || len(r.Priorities[1].Ring) != 4 {
		t.Errorf("per-priority rings wrong: %+v", r.Priorities)
	}
}

// A Listener's api_listener with an inline route_config is how a proxyless
// gRPC client gets its routes (gRFC A27): its hash_policy is used.
func TestAPIListenerRoutes(t *testing.T) {
	doc := `name: svc.example.com
api_listener:
  api_listener:
    "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
    route_config:
      name: rc
      virtual_hosts:
      - name: vh
        domains: ["*"]
        routes:
        - name: r1
          match: {prefix: ""}
          route: {cluster: c, hash_policy: [{header: {header_name: x-user}}]}
---
` + ringDoc(0, 2)
	r := build(t, doc, HashOptions{Route: "r1", Request: &HashRequest{Headers: [][2]string{{"x-user", "alice"}}}})
	if len(r.Lookups) != 1 || r.Lookups[0].Hash == nil {
		t.Fatalf("lookups %+v", r.Lookups)
	}
}

// gRPC ring hash (gRFC A42, grpc-go ringhash): endpoint weight × locality
// weight, ring sizes capped at 4096. Weights 1×3, 5×3, 1×2 → 3:15:2 of 20;
// min normalized weight 2/20, so ring size ceil(0.1·1024)/0.1 = 1030, and
// with minimum_ring_size 8192 the cap makes it 4096.
func TestGRPCRing(t *testing.T) {
	doc := `name: c
type: STATIC
lb_policy: RING_HASH
ring_hash_lb_config: {minimum_ring_size: %d}
load_assignment:
  cluster_name: c
  endpoints:
  - locality: {zone: a}
    load_balancing_weight: 3
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      load_balancing_weight: 5
  - locality: {zone: b}
    load_balancing_weight: 2
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
  - locality: {zone: c}
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
`
	r := build(t, fmt.Sprintf(doc, 1024), HashOptions{GRPC: true})
	if r.Semantics != "grpc" || *r.RingSize != 1030 {
		t.Fatalf("semantics %q ring %d, want grpc 1030", r.Semantics, *r.RingSize)
	}
	want := map[string]float64{"10.0.0.1:80": 0.15, "10.0.0.2:80": 0.75, "10.0.0.3:80": 0.1}
	for _, h := range r.Hosts {
		if w, ok := want[h.Address]; ok && h.Expected != w && (h.Expected-w > 1e-12 || w-h.Expected > 1e-12) {
			t.Errorf("%s expected %v, want %v", h.Address, h.Expected, w)
		}
		if h.Address == "10.0.0.4:80" {
			t.Errorf("a locality without weight is dropped by gRPC: %+v", h)
		}
	}
	if r := build(t, fmt.Sprintf(doc, 8192), HashOptions{GRPC: true}); *r.RingSize != 4096 {
		t.Errorf("ring %d, want the 4096 cap", *r.RingSize)
	}
	if r := build(t, fmt.Sprintf(doc, 8192), HashOptions{}); *r.RingSize <= 4096 {
		t.Errorf("Envoy ring %d should not be capped", *r.RingSize)
	}
}
