package lint

import (
	"strings"
	"testing"
)

// typedSubsetDup: the extension form, DEFAULT_SUBSET, and a
// single_host_per_subset selector whose second v1 host Envoy drops
// (lb_subsets_single_host_per_subset_duplicate).
const typedSubsetDup = `name: web
connect_timeout: 1s
type: STATIC
load_balancing_policy:
  policies:
  - typed_extension_config:
      name: envoy.load_balancing_policies.subset
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.subset.v3.Subset
        fallback_policy: DEFAULT_SUBSET
        default_subset: {stage: prod}
        subset_selectors: [{keys: [version], single_host_per_subset: true}]
        subset_lb_policy:
          policies:
          - typed_extension_config:
              name: envoy.load_balancing_policies.round_robin
              typed_config: {"@type": type.googleapis.com/envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin}
load_assignment:
  cluster_name: web
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {stage: prod}}}
`

// TestSubsetHostUnreachable: LB1311 reads the typed subset policy as the
// legacy field, counts a single-host subset's dropped duplicate and a host
// outside every subset and the default subset, names them and places the
// finding at the first; a healthy host the default subset matches is not
// reported, nor anything once ANY_ENDPOINT or panic_mode_any can reach all.
func TestSubsetHostUnreachable(t *testing.T) {
	const want = `cluster "web": 2 endpoints (10.0.0.2:80, 10.0.0.3:80) are in no subset and default_subset {stage: "prod"} does not match them, so they get no traffic whatever the health of P0`
	var got []Finding
	for _, f := range lintString(t, typedSubsetDup, Options{}) {
		if f.Rule == "LB1311" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Message != want || got[0].Pos.Line != 24 || got[0].Pos.Col != 7 || got[0].Severity != SevWarning {
		t.Errorf("got %+v\nwant one warning at 24:7: %s", got, want)
	}
	for _, fix := range []string{"fallback_policy: ANY_ENDPOINT", "fallback_policy: DEFAULT_SUBSET\n        panic_mode_any: true"} {
		src := strings.Replace(typedSubsetDup, "fallback_policy: DEFAULT_SUBSET", fix, 1)
		for _, f := range lintString(t, src, Options{}) {
			if f.Rule == "LB1311" {
				t.Errorf("%s: %s", fix, f.Message)
			}
		}
	}
}
