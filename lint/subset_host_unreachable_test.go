package lint

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
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
// legacy field, counts a single-host subset's dropped duplicate (naming the
// host the subset returns) and a host outside every subset and the default
// subset, names them and places the finding at the first; a healthy host
// the default subset matches is not reported, nor anything once ANY_ENDPOINT or panic_mode_any can reach all.
func TestSubsetHostUnreachable(t *testing.T) {
	const want = `cluster "web": endpoint 10.0.0.3:80 is in no subset; endpoint 10.0.0.2:80 is only in single_host_per_subset subset {version: "v1"}, which returns only 10.0.0.1:80; and default_subset {stage: "prod"} does not match them, so they get no traffic whatever the health of P0`
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

// TestSubsetHostUnreachableSelectorPolicies: the reason counts selectors'
// own fallback_policy; each fixture's comment derives it from
// SubsetLoadBalancer (subset_lb.cc).
func TestSubsetHostUnreachableSelectorPolicies(t *testing.T) {
	cases := []struct{ file, want string }{
		{"testdata/LB1311-selector-default.yaml", `cluster "web": endpoint 10.0.0.3:80 is in no subset and fallback_policy NO_FALLBACK picks no host, and the default_subset {stage: "prod"} that selector 0's DEFAULT_SUBSET falls back to does not match it, so it gets no traffic whatever the health of P0`},
		{"testdata/LB1311-selector-any.yaml", `cluster "web": endpoint 10.0.0.2:80 is in no subset and fallback_policy NO_FALLBACK picks no host (selector 1's ANY_ENDPOINT is never stored: an earlier selector's sorted keys begin with its own), so it gets no traffic whatever the health of P0`},
	}
	for _, tc := range cases {
		var got []string
		for _, f := range lintFiles([]config.Input{{Path: tc.file}}, TargetEnvoy) {
			if f.Rule == "LB1311" {
				got = append(got, f.Message)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: got %q\nwant %s", tc.file, got, tc.want)
		}
	}
}

// TestSubsetHostUnreachablePerRequest: a dynamic forward proxy makes its
// hosts per request, as ORIGINAL_DST does, so LB1311 skips both; an
// UNHEALTHY unreached host is not flagged (it gets no traffic anyway).
func TestSubsetHostUnreachablePerRequest(t *testing.T) {
	const bad = `name: web
connect_timeout: 1s
type: STATIC
lb_subset_config:
  subset_selectors: [{keys: [version]}]
load_assignment:
  cluster_name: web
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
`
	count := func(src string) int {
		n := 0
		for _, f := range lintString(t, src, Options{}) {
			if f.Rule == "LB1311" {
				n++
			}
		}
		return n
	}
	if n := count(bad); n != 1 {
		t.Fatalf("static cluster: %d LB1311 findings, want 1", n)
	}
	for _, typ := range []string{
		"type: ORIGINAL_DST",
		"cluster_type: {name: envoy.clusters.dynamic_forward_proxy, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.clusters.dynamic_forward_proxy.v3.ClusterConfig, dns_cache_config: {name: c}}}",
	} {
		if n := count(strings.Replace(bad, "type: STATIC", typ, 1)); n != 0 {
			t.Errorf("%s: %d LB1311 findings, want 0", typ, n)
		}
	}
	unhealthy := bad + "      health_status: UNHEALTHY\n"
	if n := count(unhealthy); n != 0 {
		t.Errorf("unhealthy unreached host: %d LB1311 findings, want 0", n)
	}
}
