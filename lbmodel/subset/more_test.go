package subset

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// localityHosts is configureWeightedHostSet from subset_test.cc: two
// localities (zones 0 and 1) with the given weights.
func localityHosts(w0, w1 uint32, l0, l1 []string) []lbmodel.Host {
	var out []lbmodel.Host
	for i, v := range l0 {
		h := mh("0-"+string(rune('a'+i)), "version", v)
		h.Locality, h.LocalityWeight = lbmodel.Locality{Zone: "0"}, w0
		out = append(out, h)
	}
	for i, v := range l1 {
		h := mh("1-"+string(rune('a'+i)), "version", v)
		h.Locality, h.LocalityWeight = lbmodel.Locality{Zone: "1"}, w1
		out = append(out, h)
	}
	return out
}

func weightsOf(ls []Locality) []uint32 {
	var out []uint32
	for _, l := range ls {
		out = append(out, l.Weight)
	}
	return out
}

func TestSubsetLocalityWeights(t *testing.T) {
	cfg := Config{LocalityWeightAware: true, ScaleLocalityWeight: true, Selectors: []Selector{{Keys: []string{"version"}}}}
	t.Run("EnabledScaleLocalityWeights", func(t *testing.T) {
		// 50*1/2 = 25 and 50*1/4 = 12.5 → 13: shares 25/38 and 13/38.
		hosts := localityHosts(50, 50, []string{"1.0", "1.1"}, []string{"1.0", "1.0", "1.0", "1.1"})
		lb := mustLB(t, cfg, hosts)
		d := lb.Select(crit("version", "1.1"), DefaultChildLB())
		if got := weightsOf(LocalityWeights(cfg, hosts, d.Hosts, 0)); !reflect.DeepEqual(got, []uint32{25, 13}) {
			t.Errorf("weights %v, want [25 13]", got)
		}
	})
	t.Run("EnabledScaleLocalityWeightsRounding", func(t *testing.T) {
		// 2*1/2 = 1 and 2*3/4 = 1.5 → 2.
		hosts := localityHosts(2, 2, []string{"1.0", "1.1"}, []string{"1.0", "1.0", "1.0", "1.1"})
		lb := mustLB(t, cfg, hosts)
		d := lb.Select(crit("version", "1.0"), DefaultChildLB())
		if got := weightsOf(LocalityWeights(cfg, hosts, d.Hosts, 0)); !reflect.DeepEqual(got, []uint32{1, 2}) {
			t.Errorf("weights %v, want [1 2]", got)
		}
	})
	t.Run("EnabledLocalityWeightAwareness", func(t *testing.T) {
		// Without scaling the original weights {1, 100} are copied.
		c := cfg
		c.ScaleLocalityWeight = false
		hosts := localityHosts(1, 100, []string{"1.0", "1.1"}, []string{"1.0", "1.1", "1.0", "1.1"})
		if got := weightsOf(LocalityWeights(c, hosts, hosts[1:2], 0)); !reflect.DeepEqual(got, []uint32{1, 100}) {
			t.Errorf("weights %v, want [1 100]", got)
		}
	})
	t.Run("ScaleLocalityWeightsWithNoLocalityWeights", func(t *testing.T) {
		hosts := []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.1")}
		if got := LocalityWeights(cfg, hosts, hosts[:1], 0); got != nil {
			t.Errorf("want no weights, got %v", got)
		}
	})
	t.Run("not locality_weight_aware", func(t *testing.T) {
		c := cfg
		c.LocalityWeightAware = false
		hosts := localityHosts(50, 50, []string{"1.0"}, []string{"1.0"})
		if got := LocalityWeights(c, hosts, hosts, 0); got != nil {
			t.Errorf("want no weights, got %v", got)
		}
	})
}

// A matched subset never falls back, even with every host unhealthy (spec
// §6.5, upstream issue #25654): the child LB panics and serves them, or
// with panic disabled returns no host and the request fails.
func TestMatchedSubsetNeverFallsBack(t *testing.T) {
	hosts := []lbmodel.Host{mh("80", "version", "1.0"), mh("81", "version", "1.1")}
	hosts[0].Status = lbmodel.StatusUnhealthy
	lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{{Keys: []string{"version"}}}}, hosts)

	d := lb.Select(crit("version", "1.0"), DefaultChildLB())
	expectPool(t, d, SourceSubset, "80")
	if !d.SubsetMatched || !d.NoHealthyHosts || d.Load == nil || !d.Load.TotalPanic {
		t.Errorf("want a panicking matched subset, got %+v", d)
	}

	noPanic := DefaultChildLB()
	noPanic.PanicThreshold = 0
	d = lb.Select(crit("version", "1.0"), noPanic)
	if d.Source != SourceNoHost || !d.SubsetMatched || d.Subset == nil || d.Yield != YieldNone {
		t.Errorf("want no host from the matched subset, got %+v", d)
	}
	if !strings.Contains(d.Reason, "does not fall back") {
		t.Errorf("reason %q", d.Reason)
	}

	fail := DefaultChildLB()
	fail.FailTrafficOnPanic = true
	if d = lb.Select(crit("version", "1.0"), fail); d.Source != SourceNoHost {
		t.Errorf("fail_traffic_on_panic: %+v", d)
	}
}

// The top-level fallback goes on to panic_mode_any only when the fallback
// pool returns no host; a subset with hosts that all left is inactive and
// falls back.
func TestFallbackPoolNoHostThenPanicModeAny(t *testing.T) {
	hosts := []lbmodel.Host{mh("80", "version", "1.0", "stage", "prod"), mh("81", "version", "1.1")}
	hosts[0].Status = lbmodel.StatusUnhealthy
	cfg := Config{FallbackPolicy: FallbackDefault, DefaultSubset: map[string]any{"stage": "prod"},
		PanicModeAny: true, Selectors: []Selector{{Keys: []string{"version"}}}}
	lb := mustLB(t, cfg, hosts)
	noPanic := DefaultChildLB()
	noPanic.PanicThreshold = 0
	d := lb.Select(crit("version", "2.0"), noPanic)
	expectPool(t, d, SourceFallback, "80", "81")
	if !d.PanicModeAny || d.FallbackPolicy != "DEFAULT_SUBSET" {
		t.Errorf("want panic_mode_any after DEFAULT_SUBSET, got %+v", d)
	}
	// With default panic the default subset serves its unhealthy host.
	d = lb.Select(crit("version", "2.0"), DefaultChildLB())
	expectPool(t, d, SourceFallback, "80")
	if d.PanicModeAny {
		t.Error("panic_mode_any should not be used")
	}
	// Without panic_mode_any the request fails.
	cfg.PanicModeAny = false
	lb = mustLB(t, cfg, hosts)
	expectPool(t, lb.Select(crit("version", "2.0"), noPanic), SourceNoHost)
}

// list_as_any quirk: an empty list for an earlier key empties the
// combinations; the next key starts afresh (spec §6.3).
func TestListAsAnyEmptyListQuirk(t *testing.T) {
	h := lbmodel.Host{Address: "q", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"a": []any{}, "b": "x"}}
	lb := mustLB(t, Config{ListAsAny: true, Selectors: []Selector{{Keys: []string{"a", "b"}}}}, []lbmodel.Host{h})
	expectPool(t, lb.Select(crit("b", "x"), DefaultChildLB()), SourceSubset, "q")
	expectPool(t, lb.Select(lbmodel.NewMatchCriteria(map[string]any{"a": []any{}, "b": "x"}), DefaultChildLB()), SourceNoHost)
}

// Default-subset label match with list_as_any (metadataLabelMatch): any
// element matches, and a list-valued label never matches a list host value.
func TestDefaultSubsetListAsAny(t *testing.T) {
	hosts := []lbmodel.Host{
		{Address: "l", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"v": []any{"1", "2"}}},
		{Address: "s", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"v": "2"}},
	}
	cfg := Config{FallbackPolicy: FallbackDefault, ListAsAny: true, DefaultSubset: map[string]any{"v": "2"},
		Selectors: []Selector{{Keys: []string{"x"}}}}
	lb := mustLB(t, cfg, hosts)
	expectPool(t, lb.Select(nil, DefaultChildLB()), SourceFallback, "l", "s")
	cfg.DefaultSubset = map[string]any{"v": []any{"1", "2"}}
	lb = mustLB(t, cfg, hosts)
	expectPool(t, lb.Select(nil, DefaultChildLB()), SourceNoHost)
	cfg.ListAsAny = false
	lb = mustLB(t, cfg, hosts)
	expectPool(t, lb.Select(nil, DefaultChildLB()), SourceFallback, "l")
}

// Degenerate input returns errors or empty results, never panics.
func TestSubsetDegenerateInput(t *testing.T) {
	child := DefaultChildLB()
	lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{{Keys: []string{"v"}}}}, nil)
	expectPool(t, lb.Select(crit("v", "1"), child), SourceNoHost)
	expectPool(t, lb.Select(nil, child), SourceNoHost)
	if len(lb.Subsets()) != 0 {
		t.Error("subsets from no hosts")
	}
	// Only empty-key selectors: enabled, but nothing to build.
	lb = mustLB(t, Config{Selectors: []Selector{{}}}, defaultInit())
	expectPool(t, lb.Select(crit("version", "1.0"), child), SourceNoHost)
	// Bad enums and priorities are errors.
	if _, err := NewLB(Config{FallbackPolicy: 7, Selectors: unusedSelector}, nil); err == nil {
		t.Error("bad fallback_policy accepted")
	}
	if _, err := NewLB(Config{Selectors: []Selector{{Keys: []string{"a"}, FallbackPolicy: 9}}}, nil); err == nil {
		t.Error("bad selector policy accepted")
	}
	if _, err := NewLB(Config{Selectors: unusedSelector}, []lbmodel.Host{{Priority: -1}}); err == nil {
		t.Error("negative priority accepted")
	}
	// Zero-weight hosts still count.
	h := mh("z", "v", "1")
	h.Weight = 0
	lb = mustLB(t, Config{Selectors: []Selector{{Keys: []string{"v"}}}}, []lbmodel.Host{h})
	expectPool(t, lb.Select(crit("v", "1"), child), SourceSubset, "z")
	// Invalid Go values never match and do not panic.
	bad := lbmodel.Host{Address: "b", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"v": 1}}
	lb = mustLB(t, Config{Selectors: []Selector{{Keys: []string{"v"}}}}, []lbmodel.Host{bad})
	expectPool(t, lb.Select(lbmodel.NewMatchCriteria(map[string]any{"v": 1}), child), SourceNoHost)
}

// The decision path names each step for the CLI.
func TestSubsetDecisionPath(t *testing.T) {
	hosts := []lbmodel.Host{mh("host1", "v", "1.0", "stage", "prod"), mh("host2", "v", "1.0", "stage", "prod")}
	lb := mustLB(t, Config{FallbackPolicy: FallbackDefault, DefaultSubset: map[string]any{"stage": "prod"},
		Selectors: []Selector{{Keys: []string{"v", "stage"}}, {Keys: []string{"stage"}}}}, hosts)
	d := lb.Select(crit("v", "1.0"), DefaultChildLB())
	want := `no subset for {v: "1.0"}; fallback DEFAULT_SUBSET {stage: "prod"} → host1, host2`
	if d.Reason != want {
		t.Errorf("reason %q, want %q", d.Reason, want)
	}
	if len(d.Steps) != 2 || d.Steps[0].Action != "lookup" || d.Steps[1].Action != "fallback" {
		t.Errorf("steps %v", d.Steps)
	}
}

// TestCheckCriteria: a list under list_as_any, a key no selector has, and
// a key set equal to no selector.
func TestCheckCriteria(t *testing.T) {
	codes := func(ps []Problem) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Code)
		}
		return out
	}
	cc := codes(CheckCriteria(Config{ListAsAny: true, Selectors: []Selector{{Keys: []string{"v", "stage"}}}},
		lbmodel.NewMatchCriteria(map[string]any{"v": []any{"1"}, "other": 1})))
	if !reflect.DeepEqual(cc, []string{"criteria-value", "criteria-unknown-key", "criteria-list-as-any", "criteria-no-selector"}) {
		t.Errorf("criteria codes %v", cc)
	}
}
