package lbmodel

import (
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel/internal/seedcases"
)

// child is a present child cluster with the given levels.
func child(name string, levels ...Level) AggregateChild {
	return AggregateChild{Name: name, Kind: ChildPresent, Levels: levels}
}

// pcts is a child whose levels have 100 hosts each, the given percentages healthy.
func pcts(name string, healthy ...int) AggregateChild {
	c := AggregateChild{Name: name, Kind: ChildPresent}
	for _, h := range healthy {
		c.Levels = append(c.Levels, pct(h))
	}
	return c
}

type aggCase struct {
	name      string
	children  []AggregateChild
	threshold int
	linear    []string // "cluster/priority" for each linearized level
	healthy   []int    // linearized healthy loads
	degraded  []int    // linearized degraded loads; nil means all 0
	clusters  []ClusterLoad
	total     int
	// totalPanic is the expected TotalPanic flag.
	totalPanic bool
}

func checkAgg(t *testing.T, c aggCase) {
	t.Helper()
	got := ComputeAggregate(c.children, c.threshold)
	var lin []string
	for _, l := range got.Levels {
		lin = append(lin, l.Cluster+"/"+string(rune('0'+l.Priority)))
	}
	if !slices.Equal(lin, c.linear) {
		t.Errorf("linearized = %v, want %v", lin, c.linear)
	}
	var h, d []int
	for _, l := range got.Load.Levels {
		h = append(h, l.HealthyLoad)
		d = append(d, l.DegradedLoad)
	}
	wantD := c.degraded
	if wantD == nil && len(c.healthy) > 0 {
		wantD = make([]int, len(c.healthy))
	}
	if !slices.Equal(h, c.healthy) || !slices.Equal(d, wantD) {
		t.Errorf("loads healthy %v degraded %v, want %v %v", h, d, c.healthy, wantD)
	}
	if !slices.Equal(got.ClusterLoad, c.clusters) {
		t.Errorf("cluster loads = %v, want %v", got.ClusterLoad, c.clusters)
	}
	if got.Load.NormalizedTotalAvailability != c.total || got.Load.TotalPanic != c.totalPanic {
		t.Errorf("T = %d total panic %v, want %d %v", got.Load.NormalizedTotalAvailability, got.Load.TotalPanic, c.total, c.totalPanic)
	}
}

func cl(primary, secondary int) []ClusterLoad {
	return []ClusterLoad{{"primary", primary}, {"secondary", secondary}}
}

// TestSeed000 reproduces seed 000 (aggregate_cluster.rst): the load
// balancing table (primary 3 levels, secondary 2, 100 hosts per level, OPF
// 140, threshold 50) and the text examples.
func TestSeed000(t *testing.T) {
	for _, c := range seed000Cases {
		t.Run(c.name, func(t *testing.T) { checkAgg(t, c) })
	}
}

// seed000Cases are seed 000's table rows (seedcases.Seed000, which
// failure's sweep tests reproduce through SweepAggregate too).
var seed000Cases = aggCasesOf(seedcases.Seed000)

// aggCasesOf turns shared seed rows into aggCases.
func aggCasesOf(rows []seedcases.Agg) []aggCase {
	var out []aggCase
	for _, r := range rows {
		c := aggCase{name: r.Name, threshold: r.Threshold, linear: r.Linear, healthy: r.Healthy,
			degraded: r.Degraded, total: r.Total, totalPanic: r.TotalPanic}
		for _, ch := range r.Children {
			c.children = append(c.children, child(ch.Name, levelsOf(ch.Levels)...))
		}
		for _, l := range r.Clusters {
			c.clusters = append(c.clusters, ClusterLoad{l.Cluster, l.Load})
		}
		out = append(out, c)
	}
	return out
}

// TestSeed000Linearization is the seed's linearization table: primary with
// 3 levels, secondary and tertiary with 2 each become levels 0..6.
func TestSeed000Linearization(t *testing.T) {
	got := Linearize([]AggregateChild{pcts("primary", 100, 100, 100), pcts("secondary", 100, 100), pcts("tertiary", 100, 100)})
	want := []struct {
		cluster  string
		priority int
	}{{"primary", 0}, {"primary", 1}, {"primary", 2}, {"secondary", 0}, {"secondary", 1}, {"tertiary", 0}, {"tertiary", 1}}
	if len(got) != len(want) {
		t.Fatalf("got %d levels, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Cluster != w.cluster || got[i].Priority != w.priority {
			t.Errorf("level %d = %s/%d, want %s/%d", i, got[i].Cluster, got[i].Priority, w.cluster, w.priority)
		}
	}
}

// agg100 is a level as AggregateClusterTest::setupHostSet builds it:
// healthy, degraded and unhealthy hosts; its updateHosts call passes an
// overprovisioning factor of 100.
func agg100(healthy, degraded, unhealthy int) Level {
	return opf(lv(healthy+degraded+unhealthy, healthy, degraded, 0), 100)
}

// TestEnvoyAggregateCluster translates
// test/extensions/clusters/aggregate/cluster_test.cc. Its expectations are
// ranges of random values sent to each cluster; they are checked through
// Choose on the linearized loads.
func TestEnvoyAggregateCluster(t *testing.T) {
	ps4 := []string{"primary/0", "primary/1", "secondary/0", "secondary/1"}
	cases := []struct {
		aggCase
		lastPrimary uint64 // random values 0..lastPrimary go to primary, the rest to secondary
	}{
		{aggCase{name: "LoadBalancerTest step1", children: []AggregateChild{
			child("primary", agg100(1, 1, 1), agg100(2, 2, 2)), child("secondary", agg100(2, 2, 2), agg100(1, 1, 1))},
			threshold: 50, linear: ps4, healthy: []int{33, 33, 33, 1}, clusters: cl(66, 34), total: 100}, 65},
		{aggCase{name: "LoadBalancerTest step2 primary P0 1/1/2", children: []AggregateChild{
			child("primary", agg100(1, 1, 2), agg100(2, 2, 2)), child("secondary", agg100(2, 2, 2), agg100(1, 1, 1))},
			threshold: 50, linear: ps4, healthy: []int{25, 33, 33, 9}, clusters: cl(58, 42), total: 100}, 57},
		{aggCase{name: "AllHostAreUnhealthyTest", children: []AggregateChild{
			child("primary", agg100(0, 0, 2), agg100(0, 0, 2)), child("secondary", agg100(0, 0, 2), agg100(0, 0, 2))},
			threshold: 50, linear: ps4, healthy: []int{25, 25, 25, 25}, clusters: cl(50, 50), total: 0, totalPanic: true}, 49},
		{aggCase{name: "ClusterInPanicTest step1 all 20%", children: []AggregateChild{
			child("primary", agg100(1, 0, 4), agg100(1, 0, 4)), child("secondary", agg100(1, 0, 4), agg100(1, 0, 4))},
			threshold: 50, linear: ps4, healthy: []int{25, 25, 25, 25}, clusters: cl(50, 50), total: 80, totalPanic: true}, 49},
		{aggCase{name: "ClusterInPanicTest step2 10/10/10/50 not total panic", children: []AggregateChild{
			child("primary", agg100(1, 0, 9), agg100(1, 0, 9)), child("secondary", agg100(1, 0, 9), agg100(1, 0, 1))},
			threshold: 50, linear: ps4, healthy: []int{14, 12, 12, 62}, clusters: cl(26, 74), total: 80}, 25},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkAgg(t, c.aggCase)
			got := ComputeAggregate(c.children, c.threshold)
			for r := uint64(0); r < 100; r++ {
				p, _, ok := got.Load.Choose(r)
				if !ok {
					t.Fatalf("Choose(%d) not ok", r)
				}
				wantPrimary := r <= c.lastPrimary
				if isPrimary := got.Levels[p].Cluster == "primary"; isPrimary != wantPrimary {
					t.Errorf("random %d went to %s", r, got.Levels[p].Cluster)
				}
			}
		})
	}
	// ClusterInPanicTest step2: only the secondary's 50% level is out of panic.
	got := ComputeAggregate([]AggregateChild{
		child("primary", agg100(1, 0, 9), agg100(1, 0, 9)), child("secondary", agg100(1, 0, 9), agg100(1, 0, 1))}, 50)
	var panics []bool
	for _, l := range got.Load.Levels {
		panics = append(panics, l.Panic)
	}
	if !slices.Equal(panics, []bool{true, true, true, false}) {
		t.Errorf("ClusterInPanicTest step2 panic = %v", panics)
	}
}

func TestAggregateEdgeCases(t *testing.T) {
	nested := AggregateChild{Name: "inner_agg", Kind: ChildAggregate, Levels: []Level{pct(100)}}
	cases := []aggCase{
		{name: "missing child skipped but listed with 0", children: []AggregateChild{
			{Name: "gone", Kind: ChildMissing, Levels: []Level{pct(100)}}, pcts("secondary", 50)},
			threshold: 50, linear: []string{"secondary/0"}, healthy: []int{100},
			clusters: []ClusterLoad{{"gone", 0}, {"secondary", 100}}, total: 70},
		{name: "nested aggregate contributes no levels", children: []AggregateChild{nested, pcts("b", 30)},
			threshold: 0, linear: []string{"b/0"}, healthy: []int{100},
			clusters: []ClusterLoad{{"inner_agg", 0}, {"b", 100}}, total: 42},
		{name: "duplicate child added twice, summed once", children: []AggregateChild{pcts("a", 50), pcts("b", 100), pcts("a", 50)},
			threshold: 50, linear: []string{"a/0", "b/0", "a/0"}, healthy: []int{70, 30, 0},
			clusters: []ClusterLoad{{"a", 70}, {"b", 30}}, total: 100},
		{name: "duplicate child in total panic gets both shares", children: []AggregateChild{child("a", lv(5, 1, 0, 0)), child("a", lv(5, 1, 0, 0))},
			threshold: 50, linear: []string{"a/0", "a/0"}, healthy: []int{50, 50},
			clusters: []ClusterLoad{{"a", 100}}, total: 56, totalPanic: true},
		{name: "empty child level skipped, child priority kept", children: []AggregateChild{
			child("a", lv(0, 0, 0, 0), lv(2, 1, 0, 0)), child("b", lv(1, 1, 0, 0))},
			threshold: 50, linear: []string{"a/1", "b/0"}, healthy: []int{70, 30},
			clusters: []ClusterLoad{{"a", 70}, {"b", 30}}, total: 100},
		{name: "all-unhealthy and all-excluded levels are kept", children: []AggregateChild{
			child("a", lv(2, 0, 0, 0), lv(2, 0, 0, 2)), child("b", lv(1, 1, 0, 0))},
			threshold: 50, linear: []string{"a/0", "a/1", "b/0"}, healthy: []int{0, 0, 100},
			clusters: []ClusterLoad{{"a", 0}, {"b", 100}}, total: 100},
		{name: "no levels at all", children: []AggregateChild{{Name: "gone", Kind: ChildMissing}, child("empty", lv(0, 0, 0, 0))},
			threshold: 50, linear: nil, healthy: nil,
			clusters: []ClusterLoad{{"gone", 0}, {"empty", 0}}, total: 0},
		{name: "each child keeps its own OPF", children: []AggregateChild{
			child("a", opf(lv(2, 1, 0, 0), 100)), child("b", opf(lv(4, 1, 0, 0), 200))},
			threshold: 50, linear: []string{"a/0", "b/0"}, healthy: []int{50, 50},
			clusters: []ClusterLoad{{"a", 50}, {"b", 50}}, total: 100},
		{name: "degraded availability at the top tier", children: []AggregateChild{child("a", lv(10, 0, 10, 0)), child("b", lv(10, 10, 0, 0))},
			threshold: 50, linear: []string{"a/0", "b/0"}, healthy: []int{0, 100}, degraded: []int{0, 0},
			clusters: []ClusterLoad{{"a", 0}, {"b", 100}}, total: 100},
		{name: "degraded load counts in cluster load", children: []AggregateChild{child("a", lv(10, 0, 3, 0)), child("b", lv(10, 2, 0, 0))},
			threshold: 0, linear: []string{"a/0", "b/0"}, healthy: []int{0, 40}, degraded: []int{60, 0},
			clusters: []ClusterLoad{{"a", 60}, {"b", 40}}, total: 70},
		{name: "aggregate threshold 0: 28/28 normalized", children: []AggregateChild{child("a", lv(5, 1, 0, 0)), child("b", lv(10, 2, 0, 0))},
			threshold: 0, linear: []string{"a/0", "b/0"}, healthy: []int{50, 50},
			clusters: []ClusterLoad{{"a", 50}, {"b", 50}}, total: 56},
		{name: "aggregate threshold 50: same children in total panic by hosts 5:10", children: []AggregateChild{child("a", lv(5, 1, 0, 0)), child("b", lv(10, 2, 0, 0))},
			threshold: 50, linear: []string{"a/0", "b/0"}, healthy: []int{34, 66},
			clusters: []ClusterLoad{{"a", 34}, {"b", 66}}, total: 56, totalPanic: true},
		{name: "total panic counts excluded hosts across clusters", children: []AggregateChild{child("a", lv(4, 0, 0, 1)), child("b", lv(6, 1, 0, 2))},
			threshold: 50, linear: []string{"a/0", "b/0"}, healthy: []int{40, 60},
			clusters: []ClusterLoad{{"a", 40}, {"b", 60}}, total: 35, totalPanic: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkAgg(t, c) })
	}
	if _, _, ok := ComputeAggregate(nil, 50).Load.Choose(0); ok {
		t.Error("aggregate with no children: Choose ok")
	}
}

// TestAggregateWeightedFlagCopied: a linearized level keeps the child's
// weighted_priority_health flag and weights (cluster.cc passes
// weightedPriorityHealth() to updateHosts).
func TestAggregateWeightedFlagCopied(t *testing.T) {
	a := weighted(opf(lv(4, 2, 0, 0), 100), 10, 6, 0, 0)
	got := ComputeAggregate([]AggregateChild{child("a", a), child("b", opf(lv(1, 1, 0, 0), 100))}, 50)
	if h := []int{got.Load.Levels[0].HealthyLoad, got.Load.Levels[1].HealthyLoad}; !slices.Equal(h, []int{60, 40}) {
		t.Errorf("loads %v, want [60 40] (WeightedPriorityHealth through the aggregate)", h)
	}
}
