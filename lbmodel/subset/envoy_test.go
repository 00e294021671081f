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
