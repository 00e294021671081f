package lbmodel

import (
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel/internal/seedcases"
)

// lv is a level with the default overprovisioning factor: hosts in total,
// of which healthy, degraded and excluded (the rest unhealthy), like
// LoadBalancerBaseTest::updateHostSet in Envoy's
// load_balancer_impl_base_test.cc.
func lv(hosts, healthy, degraded, excluded int) Level {
	return Level{Hosts: hosts, Healthy: healthy, Degraded: degraded, Excluded: excluded,
		OverprovisioningFactor: DefaultOverprovisioningFactor}
}

// pct is a seed-table level: 100 hosts, healthy of them healthy.
func pct(healthy int) Level { return lv(100, healthy, 0, 0) }

// opf returns l with another overprovisioning factor.
func opf(l Level, f uint32) Level { l.OverprovisioningFactor = f; return l }

// weighted returns l with weighted_priority_health and the given weight sums.
func weighted(l Level, total, healthy, degraded, excluded uint64) Level {
	l.WeightedPriorityHealth = true
	l.TotalWeight, l.HealthyWeight, l.DegradedWeight, l.ExcludedWeight = total, healthy, degraded, excluded
	return l
}

type loadCase struct {
	name      string
	levels    []Level
	threshold int
	healthy   []int  // expected HealthyLoad per level
	degraded  []int  // expected DegradedLoad per level; nil means all 0
	panic     []bool // expected Panic per level; nil means not checked
	total     int    // expected NormalizedTotalAvailability; -1 means not checked
	// Expected flags.
	totalPanic, unassigned, disabledNoHealth bool
}

func checkLoad(t *testing.T, c loadCase) {
	t.Helper()
	got := ComputePriorityLoad(c.levels, c.threshold)
	if len(got.Levels) != len(c.levels) {
		t.Fatalf("got %d levels, want %d", len(got.Levels), len(c.levels))
	}
	var h, d []int
	var p []bool
	for _, l := range got.Levels {
		h = append(h, l.HealthyLoad)
		d = append(d, l.DegradedLoad)
		p = append(p, l.Panic)
	}
	wantD := c.degraded
	if wantD == nil {
		wantD = make([]int, len(c.levels))
	}
	if !slices.Equal(h, c.healthy) {
		t.Errorf("healthy load = %v, want %v", h, c.healthy)
	}
	if !slices.Equal(d, wantD) {
		t.Errorf("degraded load = %v, want %v", d, wantD)
	}
	if c.panic != nil && !slices.Equal(p, c.panic) {
		t.Errorf("panic = %v, want %v", p, c.panic)
	}
	if c.total >= 0 && got.NormalizedTotalAvailability != c.total {
		t.Errorf("normalized total availability = %d, want %d", got.NormalizedTotalAvailability, c.total)
	}
	if got.TotalPanic != c.totalPanic || got.Unassigned != c.unassigned || got.PanicDisabledNoHealth != c.disabledNoHealth {
		t.Errorf("flags total_panic=%v unassigned=%v disabled_no_health=%v, want %v %v %v",
			got.TotalPanic, got.Unassigned, got.PanicDisabledNoHealth, c.totalPanic, c.unassigned, c.disabledNoHealth)
	}
}

func runLoadCases(t *testing.T, cases []loadCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLoad(t, c) })
	}
}

var (
	f2 = []bool{false, false}
	t2 = []bool{true, true}
	f3 = []bool{false, false, false}
	t3 = []bool{true, true, true}
)

// TestSeed001 reproduces the three tables of seed 001 (load_balancing.rst,
// "Priority levels"): 100 hosts per level, OPF 140, threshold 50.
func TestSeed001(t *testing.T) { runLoadCases(t, seed001Cases) }

// seed001Cases are seed 001's priority tables (seedcases.Seed001, which
// failure's sweep tests reproduce through SweepCluster too).
var seed001Cases = loadCasesOf(seedcases.Seed001)

// loadCasesOf turns shared seed rows into loadCases.
func loadCasesOf(rows []seedcases.Load) []loadCase {
	var out []loadCase
	for _, r := range rows {
		out = append(out, loadCase{name: r.Name, levels: levelsOf(r.Levels), threshold: r.Threshold,
			healthy: r.Healthy, degraded: r.Degraded, panic: r.Panic, total: r.Total, totalPanic: r.TotalPanic})
	}
	return out
}

// levelsOf turns shared seed levels into Levels with the default OPF.
func levelsOf(ls []seedcases.Level) []Level {
	var out []Level
	for _, l := range ls {
		out = append(out, lv(l.Hosts, l.Healthy, l.Degraded, 0))
	}
	return out
}

// TestEnvoyLoadBalancerBase translates the expectations of
// test/extensions/load_balancing_policies/common/load_balancer_impl_base_test.cc.
// Each step is computed from scratch; none of these steps hits the
// THR==0 && T==0 early exit, so Envoy's incremental state gives the same
// numbers.
func TestEnvoyLoadBalancerBase(t *testing.T) {
	runLoadCases(t, []loadCase{
		{name: "PrioritySelection step1 1+1 unhealthy", levels: []Level{lv(1, 0, 0, 0), lv(1, 0, 0, 0)}, threshold: 50,
			healthy: []int{50, 50}, panic: t2, total: 0, totalPanic: true},
		{name: "PrioritySelection step2 1+2 unhealthy", levels: []Level{lv(1, 0, 0, 0), lv(2, 0, 0, 0)}, threshold: 50,
			healthy: []int{34, 66}, panic: t2, total: 0, totalPanic: true},
		{name: "PrioritySelection step3 tertiary healthy", levels: []Level{lv(1, 0, 0, 0), lv(2, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 0, 100}, panic: f3, total: 100},
		{name: "PrioritySelection step4 P0 healthy", levels: []Level{lv(1, 1, 0, 0), lv(2, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{100, 0, 0}, panic: f3, total: 100},
		{name: "PrioritySelection step5 P0 unhealthy again", levels: []Level{lv(1, 0, 0, 0), lv(2, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 0, 100}, panic: f3, total: 100},

		{name: "OverProvisioningFactor default 140", levels: []Level{lv(4, 2, 0, 0), lv(4, 2, 0, 0)}, threshold: 50,
			healthy: []int{70, 30}, total: 100},
		{name: "OverProvisioningFactor 100", levels: []Level{opf(lv(4, 2, 0, 0), 100), opf(lv(4, 2, 0, 0), 100)}, threshold: 50,
			healthy: []int{50, 50}, total: 100},

		// Weights 3,3 healthy and 2,2 unhealthy; failover 1 healthy host.
		{name: "WeightedPriorityHealth", levels: []Level{
			weighted(opf(lv(4, 2, 0, 0), 100), 10, 6, 0, 0),
			weighted(opf(lv(1, 1, 0, 0), 100), 1, 1, 0, 0)}, threshold: 50,
			healthy: []int{60, 40}, total: 100},
		// Weights 4 healthy, 10 excluded, 6 unhealthy.
		{name: "WeightedPriorityHealthExcluded", levels: []Level{
			weighted(opf(lv(3, 1, 0, 1), 100), 20, 4, 0, 10),
			weighted(opf(lv(1, 1, 0, 0), 100), 1, 1, 0, 0)}, threshold: 50,
			healthy: []int{40, 60}, total: 100},
		// P0 weights 4 healthy, 3 degraded, 2+1 unhealthy; P1 1 healthy, 9 degraded.
		{name: "WeightedPriorityHealthDegraded", levels: []Level{
			weighted(opf(lv(4, 1, 1, 0), 100), 10, 4, 3, 0),
			weighted(opf(lv(2, 1, 1, 0), 100), 10, 1, 9, 0)}, threshold: 50,
			healthy: []int{40, 10}, degraded: []int{30, 20}, total: 100},

		{name: "GentleFailover step1", levels: []Level{lv(1, 1, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{100, 0}, panic: f2, total: 100},
		{name: "GentleFailover step2 70+70", levels: []Level{lv(2, 1, 0, 0), lv(2, 1, 0, 0)}, threshold: 50,
			healthy: []int{70, 30}, panic: f2, total: 100},
		{name: "GentleFailover step3 35+100 no panic at T=100", levels: []Level{lv(4, 1, 0, 0), lv(2, 2, 0, 0)}, threshold: 50,
			healthy: []int{35, 65}, panic: f2, total: 100},
		{name: "GentleFailover step4 35+35 total panic", levels: []Level{lv(4, 1, 0, 0), lv(4, 1, 0, 0)}, threshold: 50,
			healthy: []int{50, 50}, panic: t2, total: 70, totalPanic: true},
		{name: "GentleFailover step5 3 excluded make P0 fully healthy", levels: []Level{lv(4, 1, 0, 3), lv(5, 1, 0, 0)}, threshold: 50,
			healthy: []int{100, 0}, panic: f2, total: 100},
		{name: "GentleFailover step6 all P0 excluded", levels: []Level{lv(4, 0, 0, 4), lv(4, 1, 0, 0)}, threshold: 50,
			healthy: []int{50, 50}, panic: t2, total: 35, totalPanic: true},
		{name: "GentleFailover step7 total panic counts excluded hosts", levels: []Level{lv(4, 0, 0, 1), lv(6, 1, 0, 2)}, threshold: 50,
			healthy: []int{40, 60}, panic: t2, total: 35, totalPanic: true},

		{name: "GentleFailoverWithExtraLevels step1", levels: []Level{lv(1, 1, 0, 0), lv(1, 1, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{100, 0, 0}, panic: f3, total: 100},
		{name: "GentleFailoverWithExtraLevels step2", levels: []Level{lv(2, 1, 0, 0), lv(2, 1, 0, 0), lv(2, 1, 0, 0)}, threshold: 50,
			healthy: []int{70, 30, 0}, total: 100},
		{name: "GentleFailoverWithExtraLevels step3", levels: []Level{lv(4, 1, 0, 0), lv(2, 2, 0, 0), lv(2, 1, 0, 0)}, threshold: 50,
			healthy: []int{35, 65, 0}, total: 100},
		{name: "GentleFailoverWithExtraLevels step4", levels: []Level{lv(4, 1, 0, 0), lv(4, 1, 0, 0), lv(4, 1, 0, 0)}, threshold: 50,
			healthy: []int{35, 35, 30}, total: 100},
		{name: "GentleFailoverWithExtraLevels step5 28x3 rounding to P0", levels: []Level{lv(5, 1, 0, 0), lv(5, 1, 0, 0), lv(5, 1, 0, 0)}, threshold: 50,
			healthy: []int{34, 33, 33}, panic: t3, total: 84, totalPanic: true},
		{name: "GentleFailoverWithExtraLevels step6 P2 healthy", levels: []Level{lv(5, 0, 0, 0), lv(5, 0, 0, 0), lv(5, 5, 0, 0)}, threshold: 50,
			healthy: []int{0, 0, 100}, panic: f3, total: 100},
		{name: "GentleFailoverWithExtraLevels step7 P2 80%", levels: []Level{lv(5, 0, 0, 0), lv(5, 0, 0, 0), lv(5, 4, 0, 0)}, threshold: 50,
			healthy: []int{0, 0, 100}, panic: f3, total: 100},
		{name: "GentleFailoverWithExtraLevels step8 P2 40% total panic", levels: []Level{lv(5, 0, 0, 0), lv(5, 0, 0, 0), lv(5, 2, 0, 0)}, threshold: 50,
			healthy: []int{34, 33, 33}, panic: t3, total: 56, totalPanic: true},
		{name: "GentleFailoverWithExtraLevels step9 degraded P0", levels: []Level{lv(5, 0, 5, 0), lv(5, 2, 2, 0), lv(5, 2, 0, 0)}, threshold: 50,
			healthy: []int{0, 56, 44}, panic: f3, total: 100},
		{name: "GentleFailoverWithExtraLevels step10 5/3/2 down", levels: []Level{lv(5, 0, 0, 0), lv(3, 0, 0, 0), lv(2, 0, 0, 0)}, threshold: 50,
			healthy: []int{50, 30, 20}, panic: t3, total: 0, totalPanic: true},
		{name: "GentleFailoverWithExtraLevels step11 5/6/3 rounding", levels: []Level{lv(5, 0, 0, 0), lv(6, 2, 0, 0), lv(3, 1, 0, 0)}, threshold: 50,
			healthy: []int{37, 42, 21}, panic: t3, total: 92, totalPanic: true},
		{name: "GentleFailoverWithExtraLevels step12 spill into degraded", levels: []Level{lv(5, 0, 1, 0), lv(5, 0, 5, 0), lv(5, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 0, 28}, degraded: []int{28, 44, 0}, total: 100},
		{name: "GentleFailoverWithExtraLevels step13 threshold 0 remainder to first degraded", levels: []Level{lv(5, 0, 0, 0), lv(5, 0, 2, 0), lv(5, 0, 1, 0)}, threshold: 0,
			healthy: []int{0, 0, 0}, degraded: []int{0, 67, 33}, panic: f3, total: 84},
		{name: "GentleFailoverWithExtraLevels step14 degraded only total panic", levels: []Level{lv(5, 0, 0, 0), lv(5, 0, 2, 0), lv(5, 0, 1, 0)}, threshold: 50,
			healthy: []int{34, 33, 33}, panic: t3, total: 84, totalPanic: true},
		{name: "GentleFailoverWithExtraLevels step15 3/3/3", levels: []Level{lv(3, 0, 0, 0), lv(3, 0, 0, 0), lv(3, 0, 0, 0)}, threshold: 50,
			healthy: []int{34, 33, 33}, panic: t3, total: 0, totalPanic: true},
		{name: "GentleFailoverWithExtraLevels step16 empty P0 remainder to P1", levels: []Level{lv(0, 0, 0, 0), lv(6, 0, 0, 0), lv(3, 0, 0, 0)}, threshold: 50,
			healthy: []int{0, 67, 33}, panic: t3, total: 0, totalPanic: true},
	})
}

// TestEnvoyRoundRobinFailover translates the priority part of
// test/extensions/load_balancing_policies/round_robin/round_robin_lb_test.cc.
// Those tests run twice (the host set under test is P0, or P1 with P0
// empty); both variants are covered. The mocked random value is 0.
func TestEnvoyRoundRobinFailover(t *testing.T) {
	type pick struct {
		hash     uint64
		priority int
		degraded bool
	}
	cases := []struct {
		loadCase
		picks []pick
	}{
		{loadCase{name: "FailoverTest.BasicFailover", levels: []Level{lv(1, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 100}, panic: f2, total: 100}, []pick{{0, 1, false}}},
		{loadCase{name: "FailoverTest.BasicDegradedHosts", levels: []Level{lv(1, 0, 1, 0), lv(0, 0, 0, 0)}, threshold: 50,
			healthy: []int{0, 0}, degraded: []int{100, 0}, total: 100}, []pick{{0, 0, true}}},
		{loadCase{name: "FailoverTest.BasicFailoverDegradedHosts", levels: []Level{lv(1, 0, 1, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 100}, total: 100}, []pick{{0, 1, false}}},
		{loadCase{name: "FailoverTest.PriorityUpdatesWithLocalHostSet both unhealthy", levels: []Level{lv(1, 0, 0, 0), lv(1, 0, 0, 0)}, threshold: 50,
			healthy: []int{50, 50}, panic: t2, total: 0, totalPanic: true}, []pick{{0, 0, false}}},
		{loadCase{name: "FailoverTest.PriorityUpdatesWithLocalHostSet P2 added", levels: []Level{lv(1, 0, 0, 0), lv(1, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 0, 100}, total: 100}, []pick{{0, 2, false}}},
		{loadCase{name: "FailoverTest.PriorityUpdatesWithLocalHostSet P0 healthy", levels: []Level{lv(1, 1, 0, 0), lv(1, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{100, 0, 0}, total: 100}, []pick{{0, 0, false}}},
		{loadCase{name: "FailoverTest.PrioritiesWithNotAllWarmedHosts", levels: []Level{lv(2, 1, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{70, 30}, panic: f2, total: 100}, []pick{{0, 0, false}}},
		{loadCase{name: "FailoverTest.PrioritiesWithZeroWarmedHosts", levels: []Level{lv(2, 0, 0, 0), lv(1, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 100}, total: 100}, []pick{{0, 1, false}}},

		{loadCase{name: "MaxUnhealthyPanic 2 of 6 healthy", levels: []Level{lv(6, 2, 0, 0)}, threshold: 50,
			healthy: []int{100}, panic: []bool{true}, total: 46, totalPanic: true}, []pick{{0, 0, false}}},
		{loadCase{name: "MaxUnhealthyPanic 2 of 6 healthy (failover variant)", levels: []Level{lv(0, 0, 0, 0), lv(6, 2, 0, 0)}, threshold: 50,
			healthy: []int{0, 100}, panic: t2, total: 46, totalPanic: true}, []pick{{0, 1, false}}},
		{loadCase{name: "MaxUnhealthyPanic 4 of 6 healthy", levels: []Level{lv(6, 4, 0, 0)}, threshold: 50,
			healthy: []int{100}, panic: []bool{false}, total: 93}, []pick{{0, 0, false}}},
		{loadCase{name: "MaxUnhealthyPanic 4 of 6 healthy (failover variant)", levels: []Level{lv(0, 0, 0, 0), lv(6, 4, 0, 0)}, threshold: 50,
			healthy: []int{0, 100}, panic: []bool{true, false}, total: 93}, []pick{{0, 1, false}}},

		{loadCase{name: "DisablePanicMode", levels: []Level{lv(1, 0, 0, 0)}, threshold: 0,
			healthy: []int{100}, panic: []bool{false}, total: 0, disabledNoHealth: true}, []pick{{0, 0, false}}},
		{loadCase{name: "DisablePanicMode (failover variant) P0 empty still gets 100", levels: []Level{lv(0, 0, 0, 0), lv(1, 0, 0, 0)}, threshold: 0,
			healthy: []int{100, 0}, panic: f2, total: 0, disabledNoHealth: true}, []pick{{0, 0, false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLoad(t, c.loadCase)
			load := ComputePriorityLoad(c.levels, c.threshold)
			for _, p := range c.picks {
				pr, deg, ok := load.Choose(p.hash)
				if !ok || pr != p.priority || deg != p.degraded {
					t.Errorf("Choose(%d) = %d, %v, %v; want %d, %v, true", p.hash, pr, deg, ok, p.priority, p.degraded)
				}
			}
		})
	}
}

// TestPriorityEdgeCases are hand-derived from the rules in spec §§2-4.
func TestPriorityEdgeCases(t *testing.T) {
	runLoadCases(t, []loadCase{
		{name: "no levels", levels: nil, threshold: 50, healthy: nil, total: 0},
		{name: "single empty level total panic with zero hosts", levels: []Level{lv(0, 0, 0, 0)}, threshold: 50,
			healthy: []int{100}, panic: []bool{true}, total: 0, totalPanic: true},
		{name: "all levels empty total panic P0 gets 100", levels: []Level{lv(0, 0, 0, 0), lv(0, 0, 0, 0)}, threshold: 50,
			healthy: []int{100, 0}, panic: t2, total: 0, totalPanic: true},

		// Degraded hosts.
		{name: "degraded only level", levels: []Level{lv(10, 0, 10, 0)}, threshold: 50,
			healthy: []int{0}, degraded: []int{100}, panic: []bool{false}, total: 100},
		{name: "degraded count toward panic percent: 20+30 = 50 is not below 50", levels: []Level{lv(10, 2, 3, 0)}, threshold: 50,
			healthy: []int{40}, degraded: []int{60}, panic: []bool{false}, total: 70},
		{name: "healthy remainder goes to healthy load even with degraded", levels: []Level{lv(5, 1, 0, 0), lv(5, 0, 1, 0), lv(5, 1, 0, 0)}, threshold: 0,
			healthy: []int{34, 0, 33}, degraded: []int{0, 33, 0}, panic: f3, total: 84},

		// DRAINING/excluded hosts: out of the health and panic denominators.
		{name: "excluded leave denominator: 3 healthy of 4 counted", levels: []Level{lv(5, 3, 0, 1), pct(100)}, threshold: 50,
			healthy: []int{100, 0}, panic: f2, total: 100},
		{name: "excluded: 1 healthy of 2 counted is 50% exactly, not panic", levels: []Level{lv(5, 1, 0, 3), lv(10, 1, 0, 0)}, threshold: 50,
			healthy: []int{84, 16}, panic: []bool{false, true}, total: 84},

		// Per-level panic without total panic.
		{name: "per-level panic only", levels: []Level{lv(5, 1, 0, 0), lv(2, 1, 0, 0)}, threshold: 50,
			healthy: []int{29, 71}, panic: []bool{true, false}, total: 98},
		{name: "empty level panics but gets no load", levels: []Level{lv(0, 0, 0, 0), lv(2, 1, 0, 0)}, threshold: 50,
			healthy: []int{0, 100}, panic: []bool{true, false}, total: 70},
		{name: "T=100 means no panic even for a 0% level", levels: []Level{lv(10, 0, 0, 0), pct(100)}, threshold: 100,
			healthy: []int{0, 100}, panic: f2, total: 100},

		// Threshold 0: the special case and panic disabled.
		{name: "threshold 0 and T=0: P0 gets 100", levels: []Level{lv(3, 0, 0, 0), lv(4, 0, 0, 0)}, threshold: 0,
			healthy: []int{100, 0}, panic: f2, total: 0, disabledNoHealth: true},
		{name: "threshold 0 disables panic: 28/14 normalized", levels: []Level{lv(5, 1, 0, 0), lv(10, 1, 0, 0)}, threshold: 0,
			healthy: []int{67, 33}, panic: f2, total: 42},
		{name: "threshold 50 same levels: total panic by hosts 5:10", levels: []Level{lv(5, 1, 0, 0), lv(10, 1, 0, 0)}, threshold: 50,
			healthy: []int{34, 66}, panic: t2, total: 42, totalPanic: true},
		{name: "threshold above 100 is capped", levels: []Level{lv(10, 9, 0, 0), lv(10, 0, 0, 0)}, threshold: 250,
			healthy: []int{100, 0}, panic: f2, total: 100},
		{name: "threshold 100: 99% healthy levels panic when T<100", levels: []Level{opf(lv(100, 99, 0, 0), 100), opf(lv(200, 0, 0, 0), 100)}, threshold: 100,
			healthy: []int{34, 66}, panic: t2, total: 99, totalPanic: true},

		// Threshold conversion quirk: configured 29 is 28, so exactly 28% is not in panic.
		{name: "threshold 29 converts to 28: 28% levels not in panic", levels: []Level{pct(28), lv(200, 56, 0, 0)}, threshold: PanicThreshold(29, true),
			healthy: []int{50, 50}, panic: f2, total: 78},
		{name: "integer threshold 29: 28% levels in total panic", levels: []Level{pct(28), lv(200, 56, 0, 0)}, threshold: 29,
			healthy: []int{34, 66}, panic: t2, total: 78, totalPanic: true},

		// weighted_priority_health: weights change availability, never panic.
		{name: "weighted health but panic by counts", levels: []Level{weighted(lv(2, 1, 0, 0), 10, 1, 0, 0), weighted(lv(1, 1, 0, 0), 1, 1, 0, 0)}, threshold: 50,
			healthy: []int{14, 86}, panic: f2, total: 100},
		{name: "Unassigned: weights push T to 0 while counts stay at threshold", levels: []Level{weighted(lv(2, 1, 0, 0), 1001, 1, 0, 0)}, threshold: 50,
			healthy: []int{0}, panic: []bool{false}, total: 0, unassigned: true},
		{name: "Unassigned: OPF 1", levels: []Level{opf(lv(10, 9, 0, 0), 1)}, threshold: 50,
			healthy: []int{0}, panic: []bool{false}, total: 0, unassigned: true},
		{name: "Unassigned: 1 healthy + 1 degraded of 141 with threshold 1", levels: []Level{lv(141, 1, 1, 0)}, threshold: 1,
			healthy: []int{0}, panic: []bool{false}, total: 0, unassigned: true},
		{name: "same with threshold 2 is total panic", levels: []Level{lv(141, 1, 1, 0)}, threshold: 2,
			healthy: []int{100}, panic: []bool{true}, total: 0, totalPanic: true},

		// Overprovisioning factors other than 140.
		{name: "OPF 200: 50% is fully healthy", levels: []Level{opf(pct(50), 200), opf(pct(100), 200)}, threshold: 50,
			healthy: []int{100, 0}, total: 100},
		{name: "OPF 200: 49% is 98", levels: []Level{opf(pct(49), 200), opf(pct(100), 200)}, threshold: 50,
			healthy: []int{98, 2}, total: 100},
		{name: "OPF 100: 3 levels at 30% normalized", levels: []Level{opf(pct(30), 100), opf(pct(30), 100), opf(pct(30), 100)}, threshold: 0,
			healthy: []int{34, 33, 33}, total: 90},
		{name: "per-level OPF 100 and 200", levels: []Level{opf(lv(2, 1, 0, 0), 100), opf(lv(4, 1, 0, 0), 200)}, threshold: 50,
			healthy: []int{50, 50}, panic: f2, total: 100},
	})
}

// TestDocErrataPanicThresholdRst checks the numbers the in-repo
// panic_threshold.rst and priority.rst (zh copy) get wrong (spec §9).
func TestDocErrataPanicThresholdRst(t *testing.T) {
	runLoadCases(t, []loadCase{
		{name: "panic_threshold.rst 50/60 erratum: code 70/30", levels: []Level{pct(50), pct(60)}, threshold: 50, healthy: []int{70, 30}, total: 100},
		{name: "panic_threshold.rst 25/100 erratum: code 35/65", levels: []Level{pct(25), pct(100)}, threshold: 50, healthy: []int{35, 65}, total: 100},
		{name: "panic_threshold.rst 5/65 erratum: code 8/92", levels: []Level{pct(5), pct(65)}, threshold: 50,
			healthy: []int{8, 92}, panic: []bool{true, false}, total: 98},
		{name: "priority.rst zh 25/25/20 erratum: code total panic 34/33/33", levels: []Level{pct(25), pct(25), pct(20)}, threshold: 50,
			healthy: []int{34, 33, 33}, panic: t3, total: 98, totalPanic: true},
		{name: "priority.rst zh 25/25/20 erratum: threshold 0 gives 37/35/28", levels: []Level{pct(25), pct(25), pct(20)}, threshold: 0,
			healthy: []int{37, 35, 28}, panic: f3, total: 98},
	})
}
