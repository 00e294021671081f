package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/model"
)

// client_side_weighted_round_robin's slow_start_config: the worker is a
// RoundRobinLoadBalancer given that config (client_side_weighted_round_robin_lb.cc,
// getRoundRobinConfig), so a host healthy for 30s of a 60s window has
// factor 0.5 on its client-side weight 1: shares 1/3 and 2/3. Inside
// wrr_locality the same config applies per locality.
func TestCSWRRSlowStart(t *testing.T) {
	hosts := "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" +
		strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1)
	age := model.Options{HostAges: map[string]time.Duration{"10.0.0.1:80": 30 * time.Second}}
	cswrr := policyDoc(`  - typed_extension_config:
      name: cswrr
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin
        slow_start_config: {slow_start_window: 60s}
`) + hosts
	cr := explainDoc(t, cswrr, age)
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 1.0 / 3, "10.0.0.2:80": 2.0 / 3})
	if !strings.Contains(strings.Join(cr.Notes, "\n"), "inside the 1m0s slow-start window: its weight is multiplied by 0.5") {
		t.Errorf("no slow start note: %q", cr.Notes)
	}
	// Past the window (no --host-age): equal shares.
	checkShares(t, explainDoc(t, cswrr, model.Options{}), map[string]float64{"10.0.0.1:80": 0.5})

	wrr := policyDoc(strings.Replace(wrrLocality, "%s", "client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin", 1)+
		"                slow_start_config: {slow_start_window: 60s}\n") +
		"load_assignment:\n  cluster_name: c\n  endpoints:\n  - locality: {zone: a}\n    load_balancing_weight: 1\n    lb_endpoints:\n" +
		strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1) +
		"  - locality: {zone: b}\n    load_balancing_weight: 1\n    lb_endpoints:\n" + strings.Replace(ep, "%s", "10.0.0.3", 1)
	checkShares(t, explainDoc(t, wrr, age), map[string]float64{"10.0.0.1:80": 0.5 / 3, "10.0.0.2:80": 1.0 / 3, "10.0.0.3:80": 0.5})
}

// A ring-hash cluster of one host: its share is 1, not 0.999999999999999.
func TestShareWithoutFloatArtefacts(t *testing.T) {
	doc := "name: c\ntype: STATIC\nlb_policy: RING_HASH\nring_hash_lb_config: {minimum_ring_size: 2048}\nload_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" + strings.Replace(ep, "%s", "10.0.0.1", 1)
	cr := explainDoc(t, doc, model.Options{})
	if s := cr.Hosts[0].Share; s == nil || *s != 1 {
		t.Errorf("share %v, want exactly 1", s)
	}
}
