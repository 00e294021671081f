package explain

import (
	"math"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// Typed RingHash and Maglev with locality_weighted_lb_config fold locality
// weights into host weights (ThreadAwareLoadBalancerBase::refresh →
// normalizeWeights: host weight / locality total × locality weight), so
// localities weighted 1 and 3 with one host each build the same table as
// no locality weighting with host weights 1 and 3: the same shares, near
// 1/4 and 3/4. hash_balance_factor is explained as bounded load.
func TestHashLocalityWeighted(t *testing.T) {
	for _, typ := range []string{"ring_hash.v3.RingHash", "maglev.v3.Maglev"} {
		typed := policyDoc(`  - typed_extension_config:
      name: h
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.`+typ+`
        locality_weighted_lb_config: {}
        consistent_hashing_lb_config: {hash_balance_factor: 150}
`) + `load_assignment:
  cluster_name: c
  endpoints:
  - locality: {zone: a}
    load_balancing_weight: 1
    lb_endpoints:
` + strings.Replace(ep, "%s", "10.0.0.1", 1) + `  - locality: {zone: b}
    load_balancing_weight: 3
    lb_endpoints:
` + strings.Replace(ep, "%s", "10.0.0.2", 1)
		plain := policyDoc(`  - typed_extension_config:
      name: h
      typed_config: {"@type": type.googleapis.com/envoy.extensions.load_balancing_policies.`+typ+`}
`) + "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" +
			strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1) + "      load_balancing_weight: 3\n"
		a, b := explainDoc(t, typed, model.Options{}), explainDoc(t, plain, model.Options{})
		sa, sb := shareMap(a), shareMap(b)
		for addr, v := range sb {
			if sa[addr] != v {
				t.Errorf("%s %s: locality-weighted %v, host-weighted %v", typ, addr, sa[addr], v)
			}
		}
		if math.Abs(sa["10.0.0.2:80"]-0.75) > 0.05 {
			t.Errorf("%s: 10.0.0.2 share %v, want near 3/4", typ, sa["10.0.0.2:80"])
		}
		if !strings.Contains(strings.Join(a.Notes, "\n"), "hash_balance_factor 150 (bounded load)") {
			t.Errorf("%s: no bounded-load note: %q", typ, a.Notes)
		}
	}
}

func shareMap(cr traffic.ClusterReport) map[string]float64 {
	out := map[string]float64{}
	for _, h := range cr.Hosts {
		if h.Share != nil {
			out[h.Address] = *h.Share
		}
	}
	return out
}
