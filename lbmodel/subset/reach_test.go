package subset

import (
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// TestUnreached follows SubsetLoadBalancer::chooseHost (subset_lb.cc): a
// host outside every active subset is picked only through the any-endpoint
// or default subset, and Select agrees for every criteria tried.
func TestUnreached(t *testing.T) {
	hosts := []lbmodel.Host{
		mh("a", "version", "v1"),
		mh("b", "version", "v2"),
		mh("c"),                  // no version: in no subset
		mh("d", "stage", "prod"), // matches default_subset below only
		mh("e", "version", "v1"), // v1 again
	}
	sel := []Selector{{Keys: []string{"version"}}}
	cases := []struct {
		name string
		cfg  Config
		want []int
	}{
		{"NO_FALLBACK leaves hosts without the keys", Config{Selectors: sel}, []int{2, 3}},
		{"ANY_ENDPOINT reaches every host", Config{Selectors: sel, FallbackPolicy: FallbackAnyEndpoint}, nil},
		{"DEFAULT_SUBSET reaches its matches", Config{Selectors: sel, FallbackPolicy: FallbackDefault, DefaultSubset: map[string]any{"stage": "prod"}}, []int{2}},
		{"empty default_subset matches every host", Config{Selectors: sel, FallbackPolicy: FallbackDefault}, nil},
		{"panic_mode_any behind DEFAULT_SUBSET", Config{Selectors: sel, FallbackPolicy: FallbackDefault, DefaultSubset: map[string]any{"stage": "x"}, PanicModeAny: true}, nil},
		{"panic_mode_any is never consulted under NO_FALLBACK", Config{Selectors: sel, PanicModeAny: true}, []int{2, 3}},
		{"a selector's ANY_ENDPOINT", Config{Selectors: []Selector{{Keys: []string{"version"}, FallbackPolicy: SelectorAnyEndpoint}}}, nil},
		{"a selector's DEFAULT_SUBSET under NO_FALLBACK", Config{Selectors: []Selector{{Keys: []string{"version"}, FallbackPolicy: SelectorDefault}}, DefaultSubset: map[string]any{"stage": "prod"}}, []int{2}},
		{"a lost selector policy does not count", Config{Selectors: []Selector{{Keys: []string{"version"}}, {Keys: []string{"version"}, FallbackPolicy: SelectorAnyEndpoint}}}, []int{2, 3}},
		{"single_host_per_subset returns one host per value", Config{Selectors: []Selector{{Keys: []string{"version"}, SingleHostPerSubset: true}}}, []int{2, 3, 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lb := mustLB(t, tc.cfg, hosts)
			var got []int
			for _, h := range lb.UnreachedWhy().Hosts {
				got = append(got, h.Host)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("UnreachedWhy().Hosts = %v, want %v", got, tc.want)
			}
			// Cross-check with Select: no criteria ever yields an unreached host.
			picked := map[string]bool{}
			for _, c := range []*lbmodel.MatchCriteria{nil, crit(), crit("version", "v1"), crit("version", "v2"), crit("version", "v3"), crit("stage", "prod"), crit("other", "x")} {
				for _, h := range lb.Select(c, DefaultChildLB()).Hosts {
					picked[h.Address] = true
				}
			}
			for _, i := range got {
				if picked[hosts[i].Address] {
					t.Errorf("host %s reported unreached but Select returns it", hosts[i].Address)
				}
			}
			if len(picked)+len(got) != len(hosts) {
				t.Errorf("Select reached %v, UnreachedWhy %v: together they should cover all %d hosts", picked, got, len(hosts))
			}
		})
	}
}
