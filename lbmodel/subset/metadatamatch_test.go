package subset

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// ValueUtil::equal semantics (spec §6.2), hand-derived.
func TestValueEqual(t *testing.T) {
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"string vs number", "1", 1.0, false},
		{"bool vs string", true, "true", false},
		{"1 == 1.0", 1.0, float64(1), true},
		{"-0 == 0", math.Copysign(0, -1), 0.0, true},
		{"NaN != NaN", math.NaN(), math.NaN(), false},
		{"null == null", nil, nil, true},
		{"lists in order", []any{"a", "b"}, []any{"a", "b"}, true},
		{"lists out of order", []any{"a", "b"}, []any{"b", "a"}, false},
		{"struct key order irrelevant", map[string]any{"x": 1.0, "y": "z"}, map[string]any{"y": "z", "x": 1.0}, true},
		{"struct extra key", map[string]any{"x": 1.0}, map[string]any{"x": 1.0, "y": nil}, false},
		{"invalid Go type", 1, 1, false},
	}
	for _, tc := range cases {
		if got := lbmodel.ValueEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: ValueEqual = %v, want %v", tc.name, got, tc.want)
		}
	}
	// HashedValue equality also needs equal hashes: -0 and 0 differ.
	if lbmodel.HashedEqual(math.Copysign(0, -1), 0.0) {
		t.Error("HashedEqual(-0, 0) should be false")
	}
	if !lbmodel.HashedEqual(map[string]any{"x": 1.0, "y": "z"}, map[string]any{"y": "z", "x": 1.0}) {
		t.Error("HashedEqual of equal structs should be true")
	}
}

// Subset lookup with structured and numeric values: only identical values
// match (seed 001: "a route's match criteria will only match if an identical
// structured value appears in the host's metadata").
func TestSubsetStructuredValues(t *testing.T) {
	hosts := []lbmodel.Host{
		{Address: "a", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"cfg": map[string]any{"x": 1.0, "y": []any{"p"}}}},
		{Address: "b", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"cfg": 1.0}},
		{Address: "c", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"cfg": "1"}},
		{Address: "d", Status: lbmodel.StatusHealthy, Metadata: map[string]any{"cfg": 0.0}},
	}
	lb := mustLB(t, Config{Selectors: []Selector{{Keys: []string{"cfg"}}}}, hosts)
	child := DefaultChildLB()
	one := func(v any) *lbmodel.MatchCriteria { return lbmodel.NewMatchCriteria(map[string]any{"cfg": v}) }
	expectPool(t, lb.Select(one(map[string]any{"y": []any{"p"}, "x": 1.0}), child), SourceSubset, "a")
	expectPool(t, lb.Select(one(map[string]any{"x": 1.0}), child), SourceNoHost)
	expectPool(t, lb.Select(one(float64(1)), child), SourceSubset, "b")
	expectPool(t, lb.Select(one("1"), child), SourceSubset, "c")
	expectPool(t, lb.Select(one(true), child), SourceNoHost)
	expectPool(t, lb.Select(one(math.Copysign(0, -1)), child), SourceNoHost) // hash differs
	expectPool(t, lb.Select(one(math.NaN()), child), SourceNoHost)
}

// Merge and filter rules (spec §7.2, extractMetadataMatchCriteria and
// filterMatchCriteria), hand-derived.
func TestMatchCriteriaMergeFilter(t *testing.T) {
	parent := lbmodel.NewMatchCriteria(map[string]any{"b": "1", "c": "2"})
	got := parent.Merge(map[string]any{"a": "3", "b": 4.0, "b++": true})
	want := &lbmodel.MatchCriteria{Entries: []lbmodel.Criterion{{Name: "a", Value: "3"}, {Name: "b", Value: 4.0}, {Name: "b++", Value: true}, {Name: "c", Value: "2"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merge: got %s, want %s", got, want)
	}
	// Bytewise order: upper case sorts first.
	if got := lbmodel.NewMatchCriteria(map[string]any{"a": "x", "Z": "y"}).Names(); !reflect.DeepEqual(got, []string{"Z", "a"}) {
		t.Errorf("order: %v", got)
	}
	// Filter keeps order; an empty result is empty, not nil.
	f := got.Filter([]string{"c", "a", "zzz"})
	if !reflect.DeepEqual(f.Names(), []string{"a", "c"}) {
		t.Errorf("filter: %v", f.Names())
	}
	if e := got.Filter(nil); e == nil || len(e.Entries) != 0 {
		t.Errorf("empty filter: %#v", e)
	}
	if (*lbmodel.MatchCriteria)(nil).Filter([]string{"a"}) != nil {
		t.Error("nil filter should stay nil")
	}
	// Present-but-empty struct gives empty, non-nil criteria (spec §7.1).
	if c := lbmodel.NewMatchCriteria(map[string]any{}); c == nil || len(c.Entries) != 0 {
		t.Errorf("empty struct: %#v", c)
	}
	// Dynamic metadata wins over route and weighted cluster.
	rc := lbmodel.RouteCriteria(map[string]any{"v": "1.0", "stage": "prod"}, map[string]any{"stage": "canary"}, map[string]any{"v": "2.0"})
	if !reflect.DeepEqual(rc, crit("stage", "canary", "v", "2.0")) {
		t.Errorf("dynamic: %s", rc)
	}
	if lbmodel.RouteCriteria(nil, nil, nil) != nil {
		t.Error("no criteria at all should be nil")
	}
	if got := lbmodel.RouteCriteria(nil, nil, map[string]any{"v": "x"}); !reflect.DeepEqual(got, crit("v", "x")) {
		t.Errorf("dynamic alone: %s", got)
	}
}

// An empty-but-present route criteria never matches a subset and goes to
// the top-level fallback; nil criteria do as well.
func TestEmptyCriteriaFallBack(t *testing.T) {
	lb := mustLB(t, Config{FallbackPolicy: FallbackAnyEndpoint, Selectors: []Selector{{Keys: []string{"version"}, FallbackPolicy: SelectorNoFallback}}}, defaultInit())
	expectPool(t, lb.Select(crit(), DefaultChildLB()), SourceFallback, "80", "81")
}

// pickWeightedCluster (weighted_cluster_specifier.cc), hand-derived.
func TestPickWeightedCluster(t *testing.T) {
	wc := []lbmodel.WeightedCluster{{Name: "a", Weight: 30, HasHealthyHost: true}, {Name: "b", Weight: 70, HasHealthyHost: true}}
	for _, tc := range []struct {
		v    uint64
		want int
	}{{0, 0}, {29, 0}, {30, 1}, {99, 1}, {100, 0}, {129, 0}, {130, 1}} {
		got, err := lbmodel.PickWeightedCluster(wc, false, tc.v)
		if err != nil || got != tc.want {
			t.Errorf("value %d: got %d, %v; want %d", tc.v, got, err, tc.want)
		}
	}
	shares, _ := lbmodel.WeightedClusterShares(wc, false)
	if !reflect.DeepEqual(shares, []float64{0.3, 0.7}) {
		t.Errorf("shares %v", shares)
	}
	// Health-aware: b has no healthy host, so all traffic goes to a.
	wc[1].HasHealthyHost = false
	if got, _ := lbmodel.PickWeightedCluster(wc, true, 99); got != 0 {
		t.Errorf("health aware: got %d", got)
	}
	// All unhealthy: configured weights again ("weighted panic mode").
	wc[0].HasHealthyHost = false
	if got, _ := lbmodel.PickWeightedCluster(wc, true, 99); got != 1 {
		t.Errorf("all unhealthy: got %d", got)
	}
	if _, err := lbmodel.PickWeightedCluster([]lbmodel.WeightedCluster{{Name: "z"}}, false, 1); !errors.Is(err, lbmodel.ErrWeightedClustersZero) {
		t.Errorf("zero weights: %v", err)
	}
	if _, err := lbmodel.PickWeightedCluster(nil, false, 1); err == nil {
		t.Error("no clusters: want error")
	}
	big := []lbmodel.WeightedCluster{{Weight: math.MaxUint32}, {Weight: 1}}
	if _, err := lbmodel.PickWeightedCluster(big, false, 1); err == nil {
		t.Error("overflow: want error")
	}
	// Route criteria per weighted cluster: entry without metadata_match
	// keeps the route's.
	route := map[string]any{"v": "1.0"}
	if got := lbmodel.RouteCriteria(route, wc[0].MetadataMatch, nil); !reflect.DeepEqual(got, crit("v", "1.0")) {
		t.Errorf("criteria %s", got)
	}
}

func TestParseWeightedClusterHeader(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		v    uint64
		okay bool
	}{
		{[]string{"42"}, 42, true},
		{[]string{" +7 "}, 7, true},
		{[]string{"-1"}, 0, false},
		{[]string{"0x10"}, 0, false},
		{[]string{""}, 0, false},
		{[]string{"18446744073709551615"}, math.MaxUint64, true},
		{[]string{"18446744073709551616"}, 0, false},
		{[]string{"1", "2"}, 0, false},
		{nil, 0, false},
	} {
		v, ok := lbmodel.ParseWeightedClusterHeader(tc.in)
		if v != tc.v || ok != tc.okay {
			t.Errorf("%q: got %d %v, want %d %v", tc.in, v, ok, tc.v, tc.okay)
		}
	}
}

func TestNormalizeValue(t *testing.T) {
	got, err := lbmodel.NormalizeValue(map[any]any{"a": 1, "b": []any{int64(2), float32(0.5), "x"}, "c": map[string]any{"d": uint8(3)}})
	want := map[string]any{"a": 1.0, "b": []any{2.0, 0.5, "x"}, "c": map[string]any{"d": 3.0}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := lbmodel.NormalizeValue(map[any]any{1: "x"}); err == nil {
		t.Error("non-string key accepted")
	}
	if _, err := lbmodel.NormalizeValue(struct{}{}); err == nil {
		t.Error("struct accepted")
	}
}
