package subset

import (
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// mh builds a healthy host with string metadata.
func mh(addr string, kv ...string) lbmodel.Host {
	md := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		md[kv[i]] = kv[i+1]
	}
	return lbmodel.Host{Address: addr, Weight: 1, Status: lbmodel.StatusHealthy, Metadata: md}
}

// crit builds criteria from string pairs; no pairs gives empty, non-nil
// criteria.
func crit(kv ...string) *lbmodel.MatchCriteria {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return lbmodel.NewMatchCriteria(m)
}

func addrs(hosts []lbmodel.Host) []string {
	out := []string{}
	for _, h := range hosts {
		out = append(out, h.Address)
	}
	return out
}

func mustLB(t *testing.T, cfg Config, hosts []lbmodel.Host) *LB {
	t.Helper()
	lb, err := NewLB(cfg, hosts)
	if err != nil {
		t.Fatalf("NewSubsetLB: %v", err)
	}
	return lb
}

// expectPool asserts the decision's source and pool hosts.
func expectPool(t *testing.T, d Decision, src Source, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	got := addrs(d.Hosts)
	if d.Source == SourceNoHost {
		got = []string{}
	}
	if d.Source != src || !reflect.DeepEqual(got, want) {
		t.Errorf("got %s %v, want %s %v (reason %q, steps %v)", d.Source, got, src, want, d.Reason, d.Steps)
	}
}

// Seed 001, "Load Balancer Subsets" examples: hosts, config and the
// "Match Criteria | Balances Over" table.
func TestSubsetSeedTable(t *testing.T) {
	hosts := []lbmodel.Host{
		mh("host1", "v", "1.0", "stage", "prod"),
		mh("host2", "v", "1.0", "stage", "prod"),
		mh("host3", "v", "1.1", "stage", "canary"),
		mh("host4", "v", "1.2-pre", "stage", "dev"),
	}
	cfg := Config{
		FallbackPolicy: FallbackDefault,
		DefaultSubset:  map[string]any{"stage": "prod"},
		Selectors:      []Selector{{Keys: []string{"v", "stage"}}, {Keys: []string{"stage"}}},
	}
	lb := mustLB(t, cfg, hosts)
	cases := []struct {
		name   string
		c      *lbmodel.MatchCriteria
		src    Source
		policy string
		want   []string
	}{
		{"stage: canary", crit("stage", "canary"), SourceSubset, "", []string{"host3"}},
		{"v: 1.2-pre, stage: dev", crit("v", "1.2-pre", "stage", "dev"), SourceSubset, "", []string{"host4"}},
		{"v: 1.0 (no selector for v alone)", crit("v", "1.0"), SourceFallback, "DEFAULT_SUBSET", []string{"host1", "host2"}},
		{"other: x", crit("other", "x"), SourceFallback, "DEFAULT_SUBSET", []string{"host1", "host2"}},
		{"(none)", nil, SourceFallback, "DEFAULT_SUBSET", []string{"host1", "host2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := lb.Select(tc.c, DefaultChildLB())
			expectPool(t, d, tc.src, tc.want...)
			if d.FallbackPolicy != tc.policy {
				t.Errorf("fallback policy %q, want %q", d.FallbackPolicy, tc.policy)
			}
		})
	}

	// The subsets the table implies: {stage} x3 and {stage, v} x3.
	var got []string
	for _, e := range lb.Subsets() {
		got = append(got, (&lbmodel.MatchCriteria{Entries: e.Path}).String()+"="+hostList(e.Hosts))
	}
	want := []string{
		`{stage: "canary"}=host3`,
		`{stage: "canary", v: "1.1"}=host3`,
		`{stage: "dev"}=host4`,
		`{stage: "dev", v: "1.2-pre"}=host4`,
		`{stage: "prod"}=host1, host2`,
		`{stage: "prod", v: "1.0"}=host1, host2`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("subsets:\n got %q\nwant %q", got, want)
	}
}

// Newer docs (subsets.rst) add `{keys: [stage], fallback_policy: NO_FALLBACK}`
// after `{keys: [v, stage]}` and claim "stage: test" gives an empty cluster.
// initSubsetSelectorMap's first-selector-wins quirk (spec §6.4, errata 2)
// means the code uses the top-level DEFAULT_SUBSET instead; reordering the
// selectors gives the documented result.
func TestSubsetDocsStageTestErratum(t *testing.T) {
	hosts := []lbmodel.Host{
		mh("host1", "v", "1.0", "stage", "prod"),
		mh("host2", "v", "1.0", "stage", "prod"),
		mh("host3", "v", "1.1", "stage", "canary"),
		mh("host4", "v", "1.2-pre", "stage", "dev"),
	}
	cfg := Config{
		FallbackPolicy: FallbackDefault,
		DefaultSubset:  map[string]any{"stage": "prod"},
		Selectors: []Selector{
			{Keys: []string{"v", "stage"}},
			{Keys: []string{"stage"}, FallbackPolicy: SelectorNoFallback},
		},
	}
	lb := mustLB(t, cfg, hosts)
	d := lb.Select(crit("stage", "test"), DefaultChildLB())
	expectPool(t, d, SourceFallback, "host1", "host2")
	if !reflect.DeepEqual(lb.LostSelectorPolicies, []int{1}) {
		t.Errorf("LostSelectorPolicies = %v, want [1]", lb.LostSelectorPolicies)
	}

	cfg.Selectors[0], cfg.Selectors[1] = cfg.Selectors[1], cfg.Selectors[0]
	lb = mustLB(t, cfg, hosts)
	d = lb.Select(crit("stage", "test"), DefaultChildLB())
	expectPool(t, d, SourceNoHost)
	if d.FallbackPolicy != "NO_FALLBACK" || !d.SelectorPolicy {
		t.Errorf("policy %q selector=%v, want selector NO_FALLBACK", d.FallbackPolicy, d.SelectorPolicy)
	}
}

// Seed 001 weighted-cluster table: route criteria, weighted cluster criteria
// and the final (sorted) criteria. Envoy sorts by name, so the seed's
// "v: 1.0, stage: prod" is {stage, v} here.
func TestRouteCriteriaSeedTable(t *testing.T) {
	cases := []struct {
		name      string
		route, wc map[string]any
		want      *lbmodel.MatchCriteria
	}{
		{"canary overridden by prod", map[string]any{"stage": "canary"}, map[string]any{"stage": "prod"}, crit("stage", "prod")},
		{"v added to stage", map[string]any{"v": "1.0"}, map[string]any{"stage": "prod"}, crit("stage", "prod", "v", "1.0")},
		{"stage overridden", map[string]any{"v": "1.0", "stage": "prod"}, map[string]any{"stage": "canary"}, crit("stage", "canary", "v", "1.0")},
		{"both overridden", map[string]any{"v": "1.0", "stage": "prod"}, map[string]any{"v": "1.1", "stage": "canary"}, crit("stage", "canary", "v", "1.1")},
		{"no route criteria", nil, map[string]any{"v": "1.0"}, crit("v", "1.0")},
		{"no weighted cluster criteria", map[string]any{"v": "1.0"}, nil, crit("v", "1.0")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := lbmodel.RouteCriteria(tc.route, tc.wc, nil)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
