package subset

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// TestUnreachedWhy: the reasons follow SubsetLoadBalancer (subset_lb.cc):
// initSubsetSelectorMap stores a selector's policy only on a node its own
// walk created, chooseHostForSelectorFallbackPolicy sends a stored
// DEFAULT_SUBSET to subset_default_ even under a top-level NO_FALLBACK,
// chooseHostIteration returns before panic_mode_subset_ when
// fallback_subset_ is null (NO_FALLBACK), and KEYS_SUBSET and
// FALLBACK_LIST only rerun chooseHostIteration with other criteria.
func TestUnreachedWhy(t *testing.T) {
	hosts := []lbmodel.Host{
		mh("a", "version", "v1"),
		mh("b", "version", "v2"),
		mh("c"),
		mh("d", "stage", "prod"),
		mh("e", "version", "v1"),
	}
	sel := []Selector{{Keys: []string{"version"}}}
	prod := map[string]any{"stage": "prod"}
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"NO_FALLBACK", Config{Selectors: sel},
			"2 endpoints (c, d) are in no subset and fallback_policy NO_FALLBACK picks no host"},
		{"top-level DEFAULT_SUBSET", Config{Selectors: sel, FallbackPolicy: FallbackDefault, DefaultSubset: prod},
			`endpoint c is in no subset and default_subset {stage: "prod"} does not match it`},
		{"a selector's DEFAULT_SUBSET", Config{Selectors: []Selector{{Keys: []string{"version"}, FallbackPolicy: SelectorDefault}}, DefaultSubset: prod},
			`endpoint c is in no subset and fallback_policy NO_FALLBACK picks no host, and the default_subset {stage: "prod"} that selector 0's DEFAULT_SUBSET falls back to does not match it`},
		{"a lost ANY_ENDPOINT", Config{Selectors: []Selector{{Keys: []string{"version", "stage"}}, {Keys: []string{"stage"}, FallbackPolicy: SelectorAnyEndpoint}}},
			"4 endpoints (a, b, c, e) are in no subset and fallback_policy NO_FALLBACK picks no host (selector 1's ANY_ENDPOINT is never stored: an earlier selector's sorted keys begin with its own)"},
		{"single_host_per_subset", Config{Selectors: []Selector{{Keys: []string{"version"}, SingleHostPerSubset: true}}},
			"2 endpoints (c, d) are in no subset; endpoint e is only in single_host_per_subset subset {version: \"v1\"}, which returns only a; and fallback_policy NO_FALLBACK picks no host"},
		{"panic_mode_any, KEYS_SUBSET and fallback_list", Config{Selectors: []Selector{
			{Keys: []string{"version", "zone"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"version"}}, {Keys: []string{"version"}}},
			PanicModeAny: true, MetadataFallback: MetadataFallbackList},
			"2 endpoints (c, d) are in no subset and fallback_policy NO_FALLBACK picks no host (panic_mode_any is never used under NO_FALLBACK; selector 0's KEYS_SUBSET and fallback_list only retry subsets)"},
	}
	list := func(idx []int) string {
		var n []string
		for _, i := range idx {
			n = append(n, hosts[i].Address)
		}
		return strings.Join(n, ", ")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lb := mustLB(t, tc.cfg, hosts)
			u := lb.UnreachedWhy()
			if got := u.Describe(list); got != tc.want {
				t.Errorf("Describe:\n got  %s\n want %s", got, tc.want)
			}
		})
	}
	if u := mustLB(t, Config{Selectors: sel, FallbackPolicy: FallbackAnyEndpoint}, hosts).UnreachedWhy(); len(u.Hosts) != 0 {
		t.Errorf("ANY_ENDPOINT reaches every host, got %+v", u.Hosts)
	}
}

// TestUnreachedWhySingleHostPriorities: a single-host subset returns the
// first host of its lowest priority; its member in a higher priority, and
// a duplicate it dropped, are named with the host it returns.
func TestUnreachedWhySingleHostPriorities(t *testing.T) {
	hosts := []lbmodel.Host{mh("a", "version", "v1"), mh("b", "version", "v1"), mh("c", "version", "v1")}
	hosts[2].Priority = 1
	lb := mustLB(t, Config{Selectors: []Selector{{Keys: []string{"version"}, SingleHostPerSubset: true}}}, hosts)
	u := lb.UnreachedWhy()
	list := func(idx []int) string {
		var n []string
		for _, i := range idx {
			n = append(n, hosts[i].Address)
		}
		return strings.Join(n, ", ")
	}
	const want = "2 endpoints (b, c) are only in single_host_per_subset subsets, which return another host, and fallback_policy NO_FALLBACK picks no host"
	if got := u.Describe(list); got != want {
		t.Errorf("Describe:\n got  %s\n want %s", got, want)
	}
	u.Hosts = u.Hosts[:1]
	const one = `endpoint b is only in single_host_per_subset subset {version: "v1"}, which returns only a, and fallback_policy NO_FALLBACK picks no host`
	if got := u.Describe(list); got != one {
		t.Errorf("Describe of b:\n got  %s\n want %s", got, one)
	}
	u = lb.UnreachedWhy()
	if len(u.Hosts) != 2 || u.Hosts[0].Host != 1 || u.Hosts[1].Host != 2 {
		t.Fatalf("unreached %+v, want b (dropped) and c (priority 1)", u.Hosts)
	}
	for _, h := range u.Hosts {
		if len(h.Returned) != 1 || h.Returned[0] != 0 || len(h.SingleHost) != 1 {
			t.Errorf("%s: subsets %d returning %v, want one returning a", hosts[h.Host].Address, len(h.SingleHost), h.Returned)
		}
	}
}
