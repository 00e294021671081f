package subset

import (
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// Cases from Envoy's test/extensions/load_balancing_policies/subset/subset_test.cc
// (SubsetLoadBalancerTest, SubsetLoadBalancerSingleHostPerSubsetTest,
// LoadBalancerSubsetInfoImplTest). Envoy's tests pick hosts one at a time with
// round robin; lbctl reports the pool the child LB balances over, so a
// sequence "hosts_[0], hosts_[1]" for one context becomes the pool
// {hosts_[0], hosts_[1]}. Hosts are named by the tests' URL ports.

// Envoy mocks isEnabled() with no selectors in some tests; lbctl requires a
// selector, so those tests get one on a key no host or request uses.
var unusedSelector = []Selector{{Keys: []string{"unused"}}}

// defaultInit is SubsetLoadBalancerTest::init(): two hosts, version 1.0.
func defaultInit() []lbmodel.Host {
	return []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.0")}
}

func sel(policy SelectorFallbackPolicy, keys ...string) Selector {
	return Selector{Keys: keys, FallbackPolicy: policy}
}

func TestEnvoySubsetFallbackPolicies(t *testing.T) {
	child := DefaultChildLB()
	t.Run("NoFallback", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: unusedSelector}, defaultInit())
		d := lb.Select(nil, child)
		expectPool(t, d, SourceNoHost)
		if d.FallbackPolicy != "NO_FALLBACK" {
			t.Errorf("policy %q", d.FallbackPolicy)
		}
	})
	t.Run("FallbackAnyEndpoint", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: unusedSelector}, defaultInit())
		expectPool(t, lb.Select(nil, child), SourceFallback, "80", "81")
	})
	t.Run("FallbackDefaultSubset", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackDefault, Selectors: unusedSelector,
			DefaultSubset: map[string]any{"version": "default"}},
			[]lbmodel.Host{mh("80", "version", "new"), mh("81", "version", "default")})
		expectPool(t, lb.Select(nil, child), SourceFallback, "81")
	})
	t.Run("FallbackPanicMode", func(t *testing.T) {
		// The default subset is empty; panic_mode_any serves any host
		// (lb_subsets_fallback_panic).
		lb := mustLB(t, Config{FallbackPolicy: FallbackDefault, PanicModeAny: true, Selectors: unusedSelector,
			DefaultSubset: map[string]any{"version": "none"}},
			[]lbmodel.Host{mh("80", "version", "new"), mh("81", "version", "default")})
		d := lb.Select(nil, child)
		expectPool(t, d, SourceFallback, "80", "81")
		if !d.PanicModeAny || d.Pool != PoolAnyEndpoint {
			t.Errorf("want panic_mode_any any-endpoint pool, got %+v", d)
		}
	})
	t.Run("FallbackEmptyDefaultSubsetConvertsToAnyEndpoint", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackDefault, Selectors: unusedSelector,
			DefaultSubset: map[string]any{}}, defaultInit())
		expectPool(t, lb.Select(nil, child), SourceFallback, "80", "81")
	})
	t.Run("FallbackOnUnknownMetadata", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: unusedSelector}, defaultInit())
		expectPool(t, lb.Select(crit("unknown", "unknown"), child), SourceFallback, "80", "81")
		expectPool(t, lb.Select(crit("version", "unknown"), child), SourceFallback, "80", "81")
	})
	t.Run("UpdateRemovingLastSubsetHost", func(t *testing.T) {
		// After the only version 1.0 host left, its subset is inactive and
		// the request falls back to any endpoint.
		cfg := Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{sel(SelectorNotDefined, "version")}}
		lb := mustLB(t, cfg, []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.1")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "80")
		lb = mustLB(t, cfg, []lbmodel.Host{mh("81", "version", "1.1")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceFallback, "81")
	})
}

func TestEnvoySubsetBalancing(t *testing.T) {
	child := DefaultChildLB()
	t.Run("BalancesSubset", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version")}},
			[]lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.0"), mh("82", "version", "1.1"), mh("83", "version", "1.1")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "80", "81")
		expectPool(t, lb.Select(crit("version", "1.1"), child), SourceSubset, "82", "83")
	})
	t.Run("BalancesDisjointSubsets", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version"), sel(SelectorNotDefined, "hardware")}},
			[]lbmodel.Host{mh("80", "version", "1.0", "hardware", "std"), mh("81", "version", "1.0", "hardware", "bigmem"),
				mh("82", "version", "1.1", "hardware", "std"), mh("83", "version", "1.1", "hardware", "bigmem")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "80", "81")
		expectPool(t, lb.Select(crit("hardware", "bigmem"), child), SourceSubset, "81", "83")
	})
	overlap := []lbmodel.Host{mh("80", "version", "1.0", "stage", "prod"), mh("81", "version", "1.0", "stage", "prod"),
		mh("82", "version", "1.0", "stage", "off"), mh("83", "version", "1.1", "stage", "prod"),
		mh("84", "version", "999", "stage", "dev")}
	t.Run("BalancesOverlappingSubsets", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "stage", "version"), sel(SelectorNotDefined, "version")}}, overlap)
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "80", "81", "82")
		expectPool(t, lb.Select(crit("version", "1.0", "stage", "prod"), child), SourceSubset, "80", "81")
		expectPool(t, lb.Select(crit("version", "999", "stage", "dev"), child), SourceSubset, "84")
		expectPool(t, lb.Select(crit("version", "2.0", "stage", "prod"), child), SourceNoHost)
	})
	t.Run("BalancesNestedSubsets", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "stage", "version"), sel(SelectorNotDefined, "stage")}}, overlap)
		expectPool(t, lb.Select(crit("stage", "prod"), child), SourceSubset, "80", "81", "83")
		expectPool(t, lb.Select(crit("version", "1.0", "stage", "prod"), child), SourceSubset, "80", "81")
		expectPool(t, lb.Select(crit("stage", "larval"), child), SourceNoHost)
		expectPool(t, lb.Select(crit("version", "2.0", "stage", "prod"), child), SourceNoHost)
	})
	t.Run("IgnoresUnselectedMetadata", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version")}},
			[]lbmodel.Host{mh("80", "version", "1.0", "stage", "ignored"), mh("81", "ignore", "value"), mh("82", "version", "1.0")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "80", "82")
		expectPool(t, lb.Select(crit("ignore", "value"), child), SourceNoHost)
	})
	t.Run("IgnoresHostsWithoutMetadata", func(t *testing.T) {
		bare := lbmodel.Host{Address: "80", Weight: 1, Status: lbmodel.StatusHealthy}
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version")}},
			[]lbmodel.Host{bare, mh("81", "version", "1.0")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "81")
	})
	t.Run("UpdateModifyingOnlyHostHealth", func(t *testing.T) {
		// Unhealthy members stay in the subset; the child LB skips them.
		hosts := []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.0"), mh("82", "version", "1.1"), mh("83", "version", "1.1")}
		hosts[0].Status, hosts[2].Status = lbmodel.StatusUnhealthy, lbmodel.StatusUnhealthy
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version"), sel(SelectorNotDefined, "hardware")}}, hosts)
		d := lb.Select(crit("version", "1.0"), child)
		expectPool(t, d, SourceSubset, "80", "81")
		// 1 healthy of 2: health = 140*1/2 = 70, no panic, all load healthy.
		if d.Load == nil || d.Load.Levels[0].HealthyLoad != 100 || d.Load.Levels[0].Panic || d.NoHealthyHosts {
			t.Errorf("load %+v", d.Load)
		}
	})
	t.Run("OnlyMetadataChanged", func(t *testing.T) {
		// Initial state: {version} and {default} selectors, DEFAULT_SUBSET
		// {default: true}; version 1.3 is unknown and falls back to host 81.
		cfg := Config{FallbackPolicy: FallbackDefault, DefaultSubset: map[string]any{"default": "true"},
			Selectors: []Selector{sel(SelectorNotDefined, "version"), sel(SelectorNotDefined, "default")}}
		lb := mustLB(t, cfg, []lbmodel.Host{mh("8000", "version", "1.2"), mh("8001", "version", "1.0", "default", "true")})
		if n := len(lb.Subsets()); n != 3 { // lb_subsets_active == 3
			t.Errorf("active subsets %d, want 3", n)
		}
		expectPool(t, lb.Select(crit("version", "1.2"), child), SourceSubset, "8000")
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "8001")
		expectPool(t, lb.Select(crit("default", "true"), child), SourceSubset, "8001")
		expectPool(t, lb.Select(crit("version", "1.3"), child), SourceFallback, "8001")
	})
	t.Run("EmptySubsetsPurged", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version"), sel(SelectorNotDefined, "version", "stage")}},
			[]lbmodel.Host{mh("8000", "version", "1.2"), mh("8001", "version", "1.0", "stage", "prod")})
		if n := len(lb.Subsets()); n != 3 {
			t.Errorf("active subsets %d, want 3", n)
		}
	})
}

func TestEnvoySubsetListAsAny(t *testing.T) {
	child := DefaultChildLB()
	list := func(v ...string) []any {
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out
	}
	lh := func(addr string, md map[string]any) lbmodel.Host {
		return lbmodel.Host{Address: addr, Weight: 1, Status: lbmodel.StatusHealthy, Metadata: md}
	}
	version := []Selector{sel(SelectorNotDefined, "version")}
	t.Run("ListAsAnyEnabled", func(t *testing.T) {
		lb := mustLB(t, Config{ListAsAny: true, Selectors: version},
			[]lbmodel.Host{lh("8000", map[string]any{"version": list("1.2.1", "1.2")}), mh("8001", "version", "1.0")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "8001")
		expectPool(t, lb.Select(crit("version", "1.2"), child), SourceSubset, "8000")
		expectPool(t, lb.Select(crit("version", "1.2.1"), child), SourceSubset, "8000")
	})
	t.Run("ListAsAnyEnabledMultipleLists", func(t *testing.T) {
		lb := mustLB(t, Config{ListAsAny: true, Selectors: version},
			[]lbmodel.Host{lh("8000a", map[string]any{"version": list("1.2.1", "1.2")}),
				lh("8000b", map[string]any{"version": list("1.2.2", "1.2")}), mh("8001", "version", "1.0")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "8001")
		expectPool(t, lb.Select(crit("version", "1.2"), child), SourceSubset, "8000a", "8000b")
		expectPool(t, lb.Select(crit("version", "1.2.1"), child), SourceSubset, "8000a")
		expectPool(t, lb.Select(crit("version", "1.2.2"), child), SourceSubset, "8000b")
	})
	t.Run("ListAsAnyEnabledMultipleListsForSingleHost", func(t *testing.T) {
		lb := mustLB(t, Config{ListAsAny: true, Selectors: []Selector{sel(SelectorNotDefined, "version", "hardware")}},
			[]lbmodel.Host{lh("8000a", map[string]any{"version": list("1.2.1", "1.2"), "hardware": list("a", "b")}),
				lh("8000b", map[string]any{"version": list("1.1", "1.1.1"), "hardware": list("b", "c")})})
		expectPool(t, lb.Select(crit("version", "1.2", "hardware", "a"), child), SourceSubset, "8000a")
		expectPool(t, lb.Select(crit("version", "1.1", "hardware", "b"), child), SourceSubset, "8000b")
		expectPool(t, lb.Select(crit("version", "1.1", "hardware", "a"), child), SourceNoHost)
		expectPool(t, lb.Select(crit("version", "1.2.1", "hardware", "b"), child), SourceSubset, "8000a")
	})
	t.Run("ListAsAnyDisable", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: version},
			[]lbmodel.Host{lh("8000", map[string]any{"version": list("1.2.1", "1.2")}), mh("8001", "version", "1.0")})
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "8001")
		expectPool(t, lb.Select(crit("version", "1.2"), child), SourceNoHost)
		// Without list_as_any only the identical list matches.
		whole := lbmodel.NewMatchCriteria(map[string]any{"version": list("1.2.1", "1.2")})
		expectPool(t, lb.Select(whole, child), SourceSubset, "8000")
	})
}

func TestEnvoySubsetSelectorFallbacks(t *testing.T) {
	child := DefaultChildLB()
	four := []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.0"), mh("82", "version", "1.1"), mh("83", "version", "1.1")}
	t.Run("SubsetSelectorNoFallbackPerSelector", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackDefault, Selectors: []Selector{sel(SelectorNoFallback, "version")}}, four)
		expectPool(t, lb.Select(crit("version", "1.0"), child), SourceSubset, "80", "81")
		expectPool(t, lb.Select(crit("version", "1.1"), child), SourceSubset, "82", "83")
		d := lb.Select(crit("version", "1.2"), child)
		expectPool(t, d, SourceNoHost)
		if d.FallbackPolicy != "NO_FALLBACK" || !d.SelectorPolicy {
			t.Errorf("policy %q selector=%v", d.FallbackPolicy, d.SelectorPolicy)
		}
	})
	t.Run("FallbackNotDefinedForIntermediateSelector", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{
			sel(SelectorNotDefined, "stage"), sel(SelectorAnyEndpoint, "stage", "version")}},
			[]lbmodel.Host{mh("80", "version", "1.0", "stage", "dev"), mh("81", "version", "1.0", "stage", "canary")})
		expectPool(t, lb.Select(crit("stage", "dev"), child), SourceSubset, "80")
		expectPool(t, lb.Select(crit("stage", "test"), child), SourceFallback, "80", "81")
	})
	t.Run("SubsetSelectorFallbackOverridesTopLevelOne", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{sel(SelectorNoFallback, "version")}}, defaultInit())
		expectPool(t, lb.Select(crit("unknown", "unknown"), child), SourceFallback, "80", "81")
		expectPool(t, lb.Select(crit("version", "unknown"), child), SourceNoHost)
	})
	t.Run("SubsetSelectorNoFallbackMatchesTopLevelOne", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNoFallback, "version")}}, defaultInit())
		expectPool(t, lb.Select(crit("unknown", "unknown"), child), SourceNoHost)
		expectPool(t, lb.Select(crit("version", "unknown"), child), SourceNoHost)
	})
	t.Run("SubsetSelectorDefaultAnyFallbackPerSelector", func(t *testing.T) {
		// Top-level NO_FALLBACK, yet the selector's DEFAULT_SUBSET builds the
		// default subset {bar: default}.
		lb := mustLB(t, Config{DefaultSubset: map[string]any{"bar": "default"}, Selectors: []Selector{
			sel(SelectorDefault, "version"), sel(SelectorAnyEndpoint, "app"), sel(SelectorNotDefined, "foo")}},
			[]lbmodel.Host{mh("81", "version", "0.0"), mh("82", "version", "1.0"), mh("83", "app", "envoy"), mh("84", "foo", "abc", "bar", "default")})
		expectPool(t, lb.Select(crit("app", "ngnix"), child), SourceFallback, "81", "82", "83", "84")
		expectPool(t, lb.Select(crit("app", "envoy"), child), SourceSubset, "83")
		expectPool(t, lb.Select(crit("version", "x"), child), SourceFallback, "84")
		expectPool(t, lb.Select(crit("foo", "abc"), child), SourceSubset, "84")
		// {foo} is NOT_DEFINED and the top level is NO_FALLBACK.
		expectPool(t, lb.Select(crit("foo", "x"), child), SourceNoHost)
	})
	t.Run("SubsetSelectorAnyAfterUpdate", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorAnyEndpoint, "version")}},
			[]lbmodel.Host{mh("81", "version", "1"), mh("82", "version", "2")})
		expectPool(t, lb.Select(crit("version", "x"), child), SourceFallback, "81", "82")
	})
	t.Run("FallbackForCompoundSelector", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, DefaultSubset: map[string]any{"foo": "bar"},
			Selectors: []Selector{
				sel(SelectorNotDefined, "version"),
				sel(SelectorNoFallback, "version", "hardware", "stage"),
				sel(SelectorDefault, "version", "hardware"),
				{Keys: []string{"version", "stage"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"version"}},
			}},
			[]lbmodel.Host{mh("80", "version", "1.0", "hardware", "c32"), mh("81", "version", "1.0", "hardware", "c32", "foo", "bar"),
				mh("82", "version", "2.0", "hardware", "c32", "stage", "dev"), mh("83", "version", "2.0")})
		expectPool(t, lb.Select(crit("version", "1.0", "hardware", "c32"), child), SourceSubset, "80", "81")
		expectPool(t, lb.Select(crit("version", "x", "hardware", "c32"), child), SourceFallback, "81")
		expectPool(t, lb.Select(crit("version", "2.0", "hardware", "zzz", "stage", "dev"), child), SourceNoHost)
		expectPool(t, lb.Select(crit("version", "2.0", "hardware", "c32", "stage", "x"), child), SourceNoHost)
		expectPool(t, lb.Select(crit("version", "2.0", "hardware", "c32", "stage", "dev"), child), SourceSubset, "82")
		expectPool(t, lb.Select(crit("version", "2.0"), child), SourceSubset, "82", "83")
		expectPool(t, lb.Select(crit("version", "2.0", "stage", "dev"), child), SourceSubset, "82")
		d := lb.Select(crit("version", "2.0", "stage", "canary"), child)
		expectPool(t, d, SourceFallback, "82", "83")
		if d.FallbackPolicy != "KEYS_SUBSET" || !reflect.DeepEqual(d.Effective, crit("version", "2.0")) {
			t.Errorf("policy %q effective %s", d.FallbackPolicy, d.Effective)
		}
	})
	t.Run("KeysSubsetFallbackChained", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{
			sel(SelectorNoFallback, "stage"),
			{Keys: []string{"stage", "version"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"stage"}},
			{Keys: []string{"stage", "version", "hardware"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"version", "stage"}},
		}}, []lbmodel.Host{mh("80", "version", "1.0", "hardware", "c32", "stage", "dev"),
			mh("81", "version", "2.0", "hardware", "c64", "stage", "dev"),
			mh("82", "version", "1.0", "hardware", "c32", "stage", "test")})
		expectPool(t, lb.Select(crit("version", "1.0", "hardware", "c32", "stage", "dev"), child), SourceSubset, "80")
		expectPool(t, lb.Select(crit("version", "2.0", "hardware", "arm", "stage", "dev"), child), SourceFallback, "81")
		d := lb.Select(crit("version", "1.2", "hardware", "arm", "stage", "dev"), child)
		expectPool(t, d, SourceFallback, "80", "81")
		if !reflect.DeepEqual(d.Effective, crit("stage", "dev")) {
			t.Errorf("effective %s, want {stage: dev}", d.Effective)
		}
	})
	t.Run("KeysSubsetFallbackToNotExistingSelector", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{
			{Keys: []string{"stage", "version"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"stage"}}}},
			[]lbmodel.Host{mh("80", "version", "1.0", "stage", "dev")})
		d := lb.Select(crit("version", "1.0", "stage", "test"), child)
		expectPool(t, d, SourceFallback, "80")
		if d.FallbackPolicy != "ANY_ENDPOINT" || d.SelectorPolicy { // lb_subsets_fallback == 1
			t.Errorf("policy %q selector=%v, want top-level ANY_ENDPOINT", d.FallbackPolicy, d.SelectorPolicy)
		}
	})
}

func TestEnvoySubsetAllowRedundantKeys(t *testing.T) {
	// AllowRedundantKeysForSubset.
	cfg := Config{AllowRedundantKeys: true, Selectors: []Selector{
		sel(SelectorNoFallback, "A"), sel(SelectorNoFallback, "A", "B"), sel(SelectorNoFallback, "A", "B", "C"),
		sel(SelectorNoFallback, "A", "D"), sel(SelectorNoFallback, "version", "stage")}}
	var hosts []lbmodel.Host
	for i, s := range []string{"0", "1", "2", "3", "4"} {
		hosts = append(hosts, mh("8"+string(rune('0'+i)), "A", "A-V-"+s, "B", "B-V-"+s, "C", "C-V-"+s, "D", "D-V-"+s))
	}
	hosts = append(hosts, mh("85", "version", "1.0", "stage", "dev"), mh("86", "version", "1.0", "stage", "canary"))
	lb := mustLB(t, cfg, hosts)
	child := DefaultChildLB()
	cases := []struct {
		name string
		c    *lbmodel.MatchCriteria
		want string
	}{
		{"context_v_s_0", crit("version", "1.0", "stage", "canary"), "86"},
		{"context_v_s_1", crit("version", "1.0", "stage", "dev", "redundant", "X"), "85"},
		{"context_v_s_2", crit("version", "1.0", "stage", "prod", "redundant", "X"), ""},
		{"context_0", crit("A", "A-V-0", "B", "B-V-0", "C", "C-V-0"), "80"},
		{"context_1", crit("A", "A-V-0", "B", "B-V-0", "C", "C-V-X"), ""},
		{"context_2", crit("A", "A-V-1", "B", "B-V-1", "C", "C-V-1", "D", "D-V-X"), "81"},
		{"context_3", crit("A", "A-V-1", "B", "B-V-1", "C", "C-V-X", "D", "D-V-X"), ""},
		{"context_4", crit("A", "A-V-2", "B", "B-V-2", "D", "D-V-X"), "82"},
		{"context_5", crit("A", "A-V-3", "B", "B-V-X", "D", "D-V-3"), ""},
		{"context_6", crit("A", "A-V-3", "C", "C-V-X", "D", "D-V-3"), "83"},
	}
	expectPool(t, lb.Select(nil, child), SourceNoHost) // context_empty (null criteria)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := lb.Select(tc.c, child)
			if tc.want == "" {
				expectPool(t, d, SourceNoHost)
			} else {
				expectPool(t, d, SourceSubset, tc.want)
			}
		})
	}
}

func TestEnvoySubsetMetadataFallbackList(t *testing.T) {
	child := DefaultChildLB()
	fl := func(entries ...any) []any { return entries }
	ver := func(v string) map[string]any { return map[string]any{"version": v} }
	t.Run("MetadataFallbackList", func(t *testing.T) {
		cfg := Config{MetadataFallback: MetadataFallbackList, Selectors: []Selector{sel(SelectorNotDefined, "version")}}
		hosts := []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "2.0"), mh("82", "version", "3.0")}
		lb := mustLB(t, cfg, hosts)
		expectPool(t, lb.Select(nil, child), SourceNoHost)
		withList := lbmodel.NewMatchCriteria(map[string]any{FallbackListKey: fl(ver("2.0"), ver("1.0"))})
		expectPool(t, lb.Select(withList, child), SourceSubset, "81")
		// After the 2.0 host is removed, the second entry serves.
		lb2 := mustLB(t, cfg, []lbmodel.Host{hosts[0], hosts[2]})
		expectPool(t, lb2.Select(withList, child), SourceSubset, "80")
		// A non-list fallback_list is ignored.
		nullList := lbmodel.NewMatchCriteria(map[string]any{"version": "3.0", FallbackListKey: nil})
		expectPool(t, lb2.Select(nullList, child), SourceSubset, "82")
		// A non-struct entry contributes nothing: base criteria are empty, so
		// that entry finds no subset and the next is tried.
		badEntry := lbmodel.NewMatchCriteria(map[string]any{FallbackListKey: fl("invalid string entry", ver("1.0"))})
		expectPool(t, lb2.Select(badEntry, child), SourceSubset, "80")
		expectPool(t, lb2.Select(crit("version", "1.0"), child), SourceSubset, "80")
		// Entries override base keys.
		override := lbmodel.NewMatchCriteria(map[string]any{"version": "1.0",
			FallbackListKey: fl(map[string]any{"hardware": "arm"}, ver("5.0"), ver("3.0"))})
		d := lb2.Select(override, child)
		expectPool(t, d, SourceSubset, "82")
		if !reflect.DeepEqual(d.Effective, crit("version", "3.0")) {
			t.Errorf("effective %s", d.Effective)
		}
	})
	t.Run("MetadataFallbackDisabled", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, FallbackListKey)}},
			[]lbmodel.Host{mh("80", FallbackListKey, "lorem"), mh("81", FallbackListKey, "ipsum")})
		expectPool(t, lb.Select(crit(FallbackListKey, "ipsum"), child), SourceSubset, "81")
	})
	t.Run("MetadataFallbackAndSubsetFallback", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, MetadataFallback: MetadataFallbackList,
			Selectors: []Selector{sel(SelectorNoFallback, "hardware"),
				{Keys: []string{"hardware", "stage"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"hardware"}}}},
			[]lbmodel.Host{mh("80", "hardware", "c32", "stage", "production"), mh("81", "hardware", "c64", "stage", "canary"),
				mh("82", "hardware", "c64", "stage", "production")})
		hw := func(v string) map[string]any { return map[string]any{"hardware": v} }
		c32 := lbmodel.NewMatchCriteria(map[string]any{"stage": "canary", FallbackListKey: fl(hw("c32"), hw("c64"))})
		expectPool(t, lb.Select(c32, child), SourceFallback, "80") // via KEYS_SUBSET {hardware: c32}
		c16 := lbmodel.NewMatchCriteria(map[string]any{"stage": "canary", FallbackListKey: fl(hw("c16"), hw("c64"))})
		expectPool(t, lb.Select(c16, child), SourceSubset, "81")
		unknown := lbmodel.NewMatchCriteria(map[string]any{FallbackListKey: fl(map[string]any{"unknown": "ipsum"}, hw("c64"))})
		expectPool(t, lb.Select(unknown, child), SourceFallback, "80", "81", "82")
	})
}

func TestEnvoySubsetSingleHostPerSubset(t *testing.T) {
	child := DefaultChildLB()
	nine := []lbmodel.Host{{Address: "80", Weight: 1, Status: lbmodel.StatusHealthy},
		mh("81", "version", "v1", "stage", "dev"), mh("82", "version", "v1", "stage", "dev"),
		mh("83", "version", "v1", "stage", "prod"), mh("84", "version", "v1", "stage", "prod"),
		mh("85", "version", "v2", "stage", "dev"), mh("86", "version", "v2", "stage", "dev"),
		mh("87", "version", "v2", "stage", "prod"), mh("88", "version", "v2", "stage", "prod")}
	single := func(keys ...string) Selector { return Selector{Keys: keys, SingleHostPerSubset: true} }
	t.Run("AcceptMultipleSelectors", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{sel(SelectorNotDefined, "version"), single("stage")}}, nine)
		expectPool(t, lb.Select(crit("version", "v1"), child), SourceSubset, "81", "82", "83", "84")
		expectPool(t, lb.Select(crit("version", "v2"), child), SourceSubset, "85", "86", "87", "88")
		expectPool(t, lb.Select(crit("stage", "dev"), child), SourceSubset, "81")
		expectPool(t, lb.Select(crit("stage", "prod"), child), SourceSubset, "83")
		expectPool(t, lb.Select(crit("stage", "test"), child), SourceNoHost)
	})
	t.Run("AcceptMultipleKeys", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{single("version", "stage")}}, nine)
		expectPool(t, lb.Select(crit("version", "v1", "stage", "dev"), child), SourceSubset, "81")
		expectPool(t, lb.Select(crit("version", "v1", "stage", "prod"), child), SourceSubset, "83")
		expectPool(t, lb.Select(crit("version", "v2", "stage", "dev"), child), SourceSubset, "85")
		expectPool(t, lb.Select(crit("version", "v2", "stage", "prod"), child), SourceSubset, "87")
		expectPool(t, lb.Select(crit("version", "v2", "stage", "test"), child), SourceNoHost)
	})
	t.Run("HybridMultipleSelectorsAndKeys", func(t *testing.T) {
		lb := mustLB(t, Config{Selectors: []Selector{single("version", "stage"), sel(SelectorNotDefined, "stage")}}, nine)
		expectPool(t, lb.Select(crit("version", "v1", "stage", "dev"), child), SourceSubset, "81")
		expectPool(t, lb.Select(crit("version", "v2", "stage", "prod"), child), SourceSubset, "87")
		expectPool(t, lb.Select(crit("version", "v2", "stage", "test"), child), SourceNoHost)
		expectPool(t, lb.Select(crit("stage", "dev"), child), SourceSubset, "81", "82", "85", "86")
		expectPool(t, lb.Select(crit("stage", "prod"), child), SourceSubset, "83", "84", "87", "88")
		expectPool(t, lb.Select(crit("stage", "test"), child), SourceNoHost)
	})
	t.Run("DuplicateMetadataStat", func(t *testing.T) {
		lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{single("key")}},
			[]lbmodel.Host{mh("80", "key", "a"), mh("81", "key", "a"), mh("82", "key", "a"), mh("83", "key", "b")})
		dups := 0
		for _, e := range lb.Subsets() {
			dups += e.Duplicates
		}
		if dups != 2 {
			t.Errorf("duplicates %d, want 2", dups)
		}
	})
	base := []lbmodel.Host{{Address: "80", Weight: 1, Status: lbmodel.StatusHealthy}, mh("81", "key", "a"), mh("82", "key", "b")}
	cfg := Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{single("key")}}
	t.Run("Match", func(t *testing.T) {
		lb := mustLB(t, cfg, base)
		expectPool(t, lb.Select(crit("key", "a"), child), SourceSubset, "81")
		expectPool(t, lb.Select(crit("key", "b"), child), SourceSubset, "82")
	})
	t.Run("FallbackOnUnknownMetadata", func(t *testing.T) {
		lb := mustLB(t, cfg, base)
		expectPool(t, lb.Select(crit("unknown", "unknown"), child), SourceFallback, "80", "81", "82")
		expectPool(t, lb.Select(crit("key", "unknown"), child), SourceFallback, "80", "81", "82")
	})
	t.Run("single host returned even when unhealthy (errata 6)", func(t *testing.T) {
		h := base[1]
		h.Status = lbmodel.StatusUnhealthy
		lb := mustLB(t, cfg, []lbmodel.Host{base[0], h})
		d := lb.Select(crit("key", "a"), child)
		expectPool(t, d, SourceSubset, "81")
		if !d.NoHealthyHosts || d.Yield != YieldAll {
			t.Errorf("want an unhealthy single host returned, got %+v", d)
		}
	})
	t.Run("lowest priority host wins", func(t *testing.T) {
		p1 := mh("91", "key", "a")
		p1.Priority = 1
		lb := mustLB(t, cfg, []lbmodel.Host{p1, mh("90", "key", "a")})
		expectPool(t, lb.Select(crit("key", "a"), child), SourceSubset, "90")
	})
}

// LoadBalancerSubsetInfoImplTest validation cases.
func TestEnvoySubsetInfoValidation(t *testing.T) {
	hosts := defaultInit()
	cases := []struct {
		name string
		s    Selector
		err  string
	}{
		{"KeysSubsetForOtherPolicyInvalid", Selector{Keys: []string{"key1", "key2"}, FallbackPolicy: SelectorAnyEndpoint, FallbackKeysSubset: []string{"key1"}},
			"subset_selectors[0]: fallback_keys_subset can be set only for KEYS_SUBSET fallback_policy"},
		{"KeysSubsetNotASubsetInvalid", Selector{Keys: []string{"key1", "key2"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"key3"}},
			"subset_selectors[0]: fallback_keys_subset must be a subset of selector keys"},
		{"KeysSubsetEmptyInvalid", Selector{Keys: []string{"key1", "key2"}, FallbackPolicy: SelectorKeys},
			"subset_selectors[0]: fallback_keys_subset cannot be empty"},
		{"KeysSubsetEqualKeysInvalid", Selector{Keys: []string{"key1", "key2"}, FallbackPolicy: SelectorKeys, FallbackKeysSubset: []string{"key2", "key1"}},
			"subset_selectors[0]: fallback_keys_subset cannot be equal to keys"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewLB(Config{Selectors: []Selector{tc.s}}, hosts)
			if err == nil || err.Error() != tc.err {
				t.Errorf("err %v, want %q", err, tc.err)
			}
		})
	}
	t.Run("DefaultConfigIsDiabled", func(t *testing.T) {
		if (Config{}).Enabled() {
			t.Error("empty config enabled")
		}
		if _, err := NewLB(Config{}, hosts); err != ErrDisabled {
			t.Errorf("err %v", err)
		}
	})
}
