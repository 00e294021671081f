package subset

import (
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// More cases from Envoy's subset_test.cc (see envoy_test.go for how they
// are translated): redundant keys, metadata fallback lists, single host per
// subset, and LoadBalancerSubsetInfoImplTest's config validation.

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
