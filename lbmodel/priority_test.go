package lbmodel

import (
	"math"
	"math/rand/v2"
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

func TestAvailability(t *testing.T) {
	cases := []struct {
		name        string
		level       Level
		health, deg int
	}{
		{"71 of 100 is 99", pct(71), 99, 0},
		{"72 of 100 is 100 (100.8 floored, capped)", pct(72), 100, 0},
		{"5 of 7 is 100", lv(7, 5, 0, 0), 100, 0},
		{"degraded capped separately", lv(10, 8, 2, 0), 100, 28},
		{"all excluded is 0", lv(4, 0, 0, 4), 0, 0},
		{"empty is 0", lv(0, 0, 0, 0), 0, 0},
		{"OPF 100", opf(lv(4, 2, 0, 0), 100), 50, 0},
		{"OPF 200", opf(lv(3, 1, 1, 0), 200), 66, 66},
		{"weighted excludes excluded weight", weighted(opf(lv(3, 1, 0, 1), 100), 20, 4, 0, 10), 40, 0},
		{"weights ignored when not weighted", Level{Hosts: 2, Healthy: 1, TotalWeight: 10, HealthyWeight: 1, OverprovisioningFactor: 100}, 50, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, d := c.level.Availability()
			if h != c.health || d != c.deg {
				t.Errorf("Availability() = %d, %d; want %d, %d", h, d, c.health, c.deg)
			}
		})
	}
}

func TestPanicPercent(t *testing.T) {
	cases := []struct {
		name  string
		level Level
		want  float64
	}{
		{"2 of 6 healthy", lv(6, 2, 0, 0), 100.0 * 2 / 6},
		{"healthy plus degraded", lv(10, 2, 3, 0), 50},
		{"excluded leave the denominator", lv(5, 1, 0, 3), 50},
		{"all excluded", lv(4, 0, 0, 4), 0},
		{"empty", lv(0, 0, 0, 0), 0},
		{"weights and OPF do not matter", weighted(opf(lv(2, 1, 0, 0), 1), 1001, 1, 0, 0), 50},
	}
	for _, c := range cases {
		if got := c.level.PanicPercent(); got != c.want {
			t.Errorf("%s: PanicPercent() = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPanicThreshold(t *testing.T) {
	cases := []struct {
		name  string
		value float64
		set   bool
		want  int
	}{
		{"unset is 50", 0, false, 50},
		{"unset ignores value", 80, false, 50},
		{"0 disables", 0, true, 0},
		{"29 truncates to 28", 29, true, 28},
		{"57 truncates to 56", 57, true, 56},
		{"58 truncates to 57", 58, true, 57},
		{"50.9 truncates to 50", 50.9, true, 50},
		{"50", 50, true, 50},
		{"1", 1, true, 1},
		{"30", 30, true, 30},
		{"100", 100, true, 100},
		{"above 100 capped", 150, true, 100},
		{"+Inf capped", math.Inf(1), true, 100},
		{"negative is 0", -5, true, 0},
		{"NaN is 0", math.NaN(), true, 0},
	}
	for _, c := range cases {
		if got := PanicThreshold(c.value, c.set); got != c.want {
			t.Errorf("%s: PanicThreshold(%v, %v) = %d, want %d", c.name, c.value, c.set, got, c.want)
		}
	}
}

func TestChoose(t *testing.T) {
	twoLevels := ComputePriorityLoad([]Level{lv(2, 1, 0, 0), lv(2, 1, 0, 0)}, 50) // 70/30
	spill := ComputePriorityLoad([]Level{lv(5, 0, 1, 0), lv(5, 0, 5, 0), lv(5, 1, 0, 0)}, 50)
	unassigned := ComputePriorityLoad([]Level{opf(lv(10, 9, 0, 0), 1)}, 50)
	cases := []struct {
		name     string
		load     PriorityLoad
		hash     uint64
		priority int
		degraded bool
		ok       bool
	}{
		{"hash 0 is h=1", twoLevels, 0, 0, false, true},
		{"hash 69 is h=70, last of P0", twoLevels, 69, 0, false, true},
		{"hash 70 is h=71, first of P1", twoLevels, 70, 1, false, true},
		{"hash 99 is h=100", twoLevels, 99, 1, false, true},
		{"hash 100 wraps to h=1", twoLevels, 100, 0, false, true},
		{"max uint64 is h=16", twoLevels, math.MaxUint64, 0, false, true},
		{"healthy before degraded: hash 27 is P2 healthy", spill, 27, 2, false, true},
		{"hash 28 is P0 degraded", spill, 28, 0, true, true},
		{"hash 55 is last of P0 degraded", spill, 55, 0, true, true},
		{"hash 56 is P1 degraded", spill, 56, 1, true, true},
		{"hash 99 is P1 degraded", spill, 99, 1, true, true},
		{"Unassigned falls back to P0 healthy, not ok", unassigned, 0, 0, false, false},
		{"no levels, not ok", PriorityLoad{}, 5, 0, false, false},
	}
	for _, c := range cases {
		p, d, ok := c.load.Choose(c.hash)
		if p != c.priority || d != c.degraded || ok != c.ok {
			t.Errorf("%s: Choose(%d) = %d, %v, %v; want %d, %v, %v", c.name, c.hash, p, d, ok, c.priority, c.degraded, c.ok)
		}
	}
}

func TestLevelsFromHosts(t *testing.T) {
	h := func(p int, s HealthStatus, w uint32) Host { return Host{Priority: p, Status: s, Weight: w} }
	hosts := []Host{
		h(0, StatusHealthy, 3), h(0, StatusUnknown, 0), h(0, StatusDraining, 5), h(0, StatusUnhealthy, 2),
		h(0, StatusTimeout, 1), h(0, StatusDegraded, 4),
		// priority 1 is a gap
		h(2, StatusHealthy, 1),
		h(-1, StatusHealthy, 1), // invalid: ignored, no panic
	}
	got := LevelsFromHosts(hosts, 140, true)
	want := []Level{
		{Hosts: 6, Healthy: 2, Degraded: 1, Excluded: 1, TotalWeight: 16, HealthyWeight: 4, DegradedWeight: 4, ExcludedWeight: 5,
			OverprovisioningFactor: 140, WeightedPriorityHealth: true},
		{OverprovisioningFactor: 140, WeightedPriorityHealth: true},
		{Hosts: 1, Healthy: 1, TotalWeight: 1, HealthyWeight: 1, OverprovisioningFactor: 140, WeightedPriorityHealth: true},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("LevelsFromHosts =\n%+v\nwant\n%+v", got, want)
	}
	// P0: DRAINING is excluded: 2 healthy + 1 degraded of 5 counted = 60%.
	if p := got[0].PanicPercent(); p != 60 {
		t.Errorf("P0 PanicPercent = %v, want 60", p)
	}
	// Weighted: 140*4/11 = 50 healthy, 140*4/11 = 50 degraded.
	if hh, dd := got[0].Availability(); hh != 50 || dd != 50 {
		t.Errorf("P0 Availability = %d, %d; want 50, 50", hh, dd)
	}
	// T = min(100, 50+50+100): healthy pass 50, 0, 50; nothing left for degraded.
	checkLoad(t, loadCase{name: "from hosts", levels: got, threshold: 50,
		healthy: []int{50, 0, 50}, panic: f3, total: 100})
	// Issue 14: no hosts is still P0 (recalculateLoadInTotalPanic with no
	// hosts gives P0 healthy load 100), in panic and total panic.
	empty := LevelsFromHosts(nil, 140, false)
	if len(empty) != 1 {
		t.Fatalf("no hosts gave %d levels", len(empty))
	}
	if l := ComputePriorityLoad(empty, 50); !l.TotalPanic || !l.Levels[0].Panic || l.Levels[0].HealthyLoad != 100 {
		t.Errorf("no hosts: %+v", l)
	}
}

func TestLevelValidate(t *testing.T) {
	good := []Level{lv(0, 0, 0, 0), lv(5, 1, 2, 2), weighted(lv(2, 1, 0, 0), 3, 1, 0, 0)}
	for _, l := range good {
		if err := l.Validate(); err != nil {
			t.Errorf("%+v: unexpected error %v", l, err)
		}
	}
	bad := []Level{
		lv(-1, 0, 0, 0), lv(2, -1, 0, 0), lv(2, 2, 1, 0), lv(3, 1, 1, 2), opf(lv(1, 1, 0, 0), 0),
		weighted(lv(2, 1, 0, 0), 1, 1, 1, 0), weighted(lv(2, 1, 0, 1), 0, 0, 0, 0),
	}
	for _, l := range bad {
		if err := l.Validate(); err == nil {
			t.Errorf("%+v: no error", l)
		}
	}
}

// TestInvalidLevelsDoNotPanic: garbage in must never crash the CLI.
func TestInvalidLevelsDoNotPanic(t *testing.T) {
	inputs := [][]Level{
		{lv(-1, 0, 0, 0)},
		{lv(-3, 0, 0, 0), lv(1, 0, 0, 0)},
		{lv(2, -5, -5, 0), lv(1, 0, 0, 7)},
		{opf(lv(2, 2, 0, 0), 0)},
		{weighted(lv(2, 2, 0, 0), 0, 0, 0, 0)},
		{weighted(lv(2, 1, 0, 0), 1, 5, 0, 3)},
	}
	for _, in := range inputs {
		for _, thr := range []int{-1, 0, 50, 1000} {
			load := ComputePriorityLoad(in, thr)
			load.Choose(42)
		}
	}
}

// TestPriorityLoadProperties: for random level sets the loads are never
// negative and sum to exactly 100, except in the documented Unassigned case
// where they are all 0.
func TestPriorityLoadProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	opfs := []uint32{1, 50, 100, 140, 200, 1000}
	statuses := []HealthStatus{StatusHealthy, StatusUnknown, StatusUnhealthy, StatusDraining, StatusTimeout, StatusDegraded}
	sawUnassigned, sawTotalPanic, sawDisabled := false, false, false
	for iter := 0; iter < 5000; iter++ {
		var hosts []Host
		nLevels := r.IntN(5)
		for p := 0; p < nLevels; p++ {
			n := r.IntN(12)
			if r.IntN(4) == 0 {
				n = 0 // empty levels and gaps
			}
			for i := 0; i < n; i++ {
				hosts = append(hosts, Host{Priority: p, Status: statuses[r.IntN(len(statuses))], Weight: uint32(r.IntN(20))})
			}
		}
		levels := LevelsFromHosts(hosts, opfs[r.IntN(len(opfs))], r.IntN(2) == 0)
		for i := range levels { // per-level OPF, as after aggregate linearization
			if r.IntN(3) == 0 {
				levels[i].OverprovisioningFactor = opfs[r.IntN(len(opfs))]
			}
		}
		thr := r.IntN(101)
		load := ComputePriorityLoad(levels, thr)
		sum := 0
		for i, l := range load.Levels {
			if l.HealthyLoad < 0 || l.DegradedLoad < 0 || l.Health < 0 || l.Health > 100 ||
				l.DegradedAvailability < 0 || l.DegradedAvailability > 100 {
				t.Fatalf("levels %+v thr %d: level %d out of range: %+v", levels, thr, i, l)
			}
			if load.TotalPanic && l.DegradedLoad != 0 {
				t.Fatalf("levels %+v thr %d: degraded load in total panic", levels, thr)
			}
			sum += l.HealthyLoad + l.DegradedLoad
		}
		_, _, ok := load.Choose(r.Uint64())
		switch {
		case len(levels) == 0:
			if sum != 0 || ok {
				t.Fatalf("no levels: sum %d ok %v", sum, ok)
			}
		case load.Unassigned:
			sawUnassigned = true
			if sum != 0 || ok || load.NormalizedTotalAvailability != 0 {
				t.Fatalf("levels %+v thr %d: Unassigned with sum %d ok %v", levels, thr, sum, ok)
			}
		default:
			if sum != 100 || !ok {
				t.Fatalf("levels %+v thr %d: loads sum to %d (ok %v): %+v", levels, thr, sum, ok, load)
			}
		}
		sawTotalPanic = sawTotalPanic || load.TotalPanic
		sawDisabled = sawDisabled || load.PanicDisabledNoHealth
	}
	if !sawUnassigned || !sawTotalPanic || !sawDisabled {
		t.Errorf("generator too narrow: unassigned %v total panic %v disabled %v", sawUnassigned, sawTotalPanic, sawDisabled)
	}
}

// A priority above Envoy's 128 (PGV lte) cannot be in a valid config; it
// must not make LevelsFromHosts build a level for every priority up to it
// (issue 19: lint died out of memory on priority 4294967295).
func TestLevelsFromHostsIgnoresPriorityAboveEnvoyLimit(t *testing.T) {
	hosts := []Host{{Priority: 0, Weight: 1}, {Priority: 4294967295, Weight: 1}}
	levels := LevelsFromHosts(hosts, 140, false)
	if len(levels) != 1 || levels[0].Hosts != 1 {
		t.Fatalf("levels = %d (P0 hosts %d), want 1 level with 1 host", len(levels), levels[0].Hosts)
	}
	if got := len(LevelsFromHosts([]Host{{Priority: 128, Weight: 1}}, 140, false)); got != 129 {
		t.Fatalf("priority 128 (Envoy's limit) gives %d levels, want 129", got)
	}
}
