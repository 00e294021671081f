package lbmodel

// Priority functions one at a time (availability, panic, choice, levels
// from hosts, validation) and random-input properties; the seed and Envoy
// load tables are in priority_test.go.

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

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
