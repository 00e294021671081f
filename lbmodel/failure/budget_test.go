package failure

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// prioHosts builds a priority's hosts: n hosts, the first healthy of them
// HEALTHY, then degraded DEGRADED, the rest UNHEALTHY, all weight 1.
func prioHosts(p, n, healthy, degraded int) []lbmodel.Host {
	out := make([]lbmodel.Host, n)
	for i := range out {
		out[i] = lbmodel.Host{Address: fmt.Sprintf("10.0.%d.%d:80", p, i), Priority: p, Weight: 1, Status: lbmodel.StatusUnhealthy}
		switch {
		case i < healthy:
			out[i].Status = lbmodel.StatusHealthy
		case i < healthy+degraded:
			out[i].Status = lbmodel.StatusDegraded
		}
	}
	return out
}

func cat(hs ...[]lbmodel.Host) []lbmodel.Host { return slices.Concat(hs...) }

// b is a Budget literal; -1 stands for null (never).
func b(spill, panic, total int) Budget {
	p := func(v int) *int {
		if v < 0 {
			return nil
		}
		return &v
	}
	return Budget{p(spill), p(panic), p(total)}
}

func fmtBudget(x Budget) string {
	s := func(p *int) string {
		if p == nil {
			return "never"
		}
		return fmt.Sprint(*p)
	}
	return fmt.Sprintf("{spill %s panic %s total %s}", s(x.BeforeSpill), s(x.BeforePanic), s(x.BeforeTotalPanic))
}

func checkBudgets(t *testing.T, got, want []Budget) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d budgets, want %d", len(got), len(want))
	}
	for i := range want {
		if fmtBudget(got[i]) != fmtBudget(want[i]) {
			t.Errorf("P%d budget %s, want %s", i, fmtBudget(got[i]), fmtBudget(want[i]))
		}
	}
}

// TestClusterBudgets: hand-derived budgets. 140·h/n ≥ 100 holds down to
// h = 72 of 100 or 8 of 10; panic needs T < 100 and (healthy+degraded)/n
// below the threshold.
func TestClusterBudgets(t *testing.T) {
	w := func(hs []lbmodel.Host, ws ...uint32) []lbmodel.Host {
		for i := range ws {
			hs[i].Weight = ws[i]
		}
		return hs
	}
	cases := []struct {
		name  string
		in    lbmodel.ClusterInput
		order FailOrder
		want  []Budget
	}{
		// Seed 001 table 1 row 1: P0 spills once 71 are left; P1 at 100
		// keeps T at 100, so P0 never panics.
		{"seed001 100/100", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 100, 100, 0), prioHosts(1, 100, 100, 0)), PanicThreshold: 50},
			FailFileOrder, []Budget{b(28, -1, -1), b(-1, -1, -1)}},
		// Table 1 row 4 (50%): P0's next failure lowers its load 70 → 68.
		// P1 keeps its 30 down to 22 of 100 (health 30, T 100); at 21 T is
		// 99, P1 gets 29 and panics (21% < 50); P0 at 50% never does.
		{"seed001 50/100", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 100, 50, 0), prioHosts(1, 100, 100, 0)), PanicThreshold: 50},
			FailFileOrder, []Budget{b(0, -1, -1), b(78, 78, -1)}},
		// P1 at 25% (health 35): T < 100 once P0's health is ≤ 64, i.e. 46
		// healthy (140·46/100 = 64); 46% < 50 panics, P1 at 25% too: total
		// panic at the 54th failure.
		{"P1 25%: P0 panics and total panic at 46 left", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 100, 100, 0), prioHosts(1, 100, 25, 0)), PanicThreshold: 50},
			FailFileOrder, []Budget{b(28, 53, 53), b(-1, -1, -1)}},
		{"threshold 0 never panics", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 100, 100, 0), prioHosts(1, 100, 25, 0)), PanicThreshold: 0},
			FailFileOrder, []Budget{b(28, -1, -1), b(-1, -1, -1)}},
		// One level keeps 100% of the load (remainder, then total panic by
		// host count): it never spills. Threshold 100 panics as soon as
		// T < 100: 7 of 10 is 98.
		{"threshold 100 single level", lbmodel.ClusterInput{Hosts: prioHosts(0, 10, 10, 0), PanicThreshold: 100},
			FailFileOrder, []Budget{b(-1, 2, 2)}},
		{"threshold 50 single level", lbmodel.ClusterInput{Hosts: prioHosts(0, 10, 10, 0), PanicThreshold: 50},
			FailFileOrder, []Budget{b(-1, 5, 5)}},
		{"threshold above 100 is 100", lbmodel.ClusterInput{Hosts: prioHosts(0, 10, 10, 0), PanicThreshold: 250},
			FailFileOrder, []Budget{b(-1, 2, 2)}},
		{"threshold 0 single level: all lost still P0", lbmodel.ClusterInput{Hosts: prioHosts(0, 10, 10, 0), PanicThreshold: 0},
			FailFileOrder, []Budget{b(-1, -1, -1)}},
		{"OPF 200: 5 of 10 is still 100", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 10, 10, 0), prioHosts(1, 10, 10, 0)), OverprovisioningFactor: 200, PanicThreshold: 50},
			FailFileOrder, []Budget{b(5, -1, -1), b(-1, -1, -1)}},
		{"OPF 100: any failure spills", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 10, 10, 0), prioHosts(1, 10, 10, 0)), OverprovisioningFactor: 100, PanicThreshold: 50},
			FailFileOrder, []Budget{b(0, -1, -1), b(-1, -1, -1)}},
		// Degraded hosts: P0's healthy load 98 after one failure; P1's
		// healthy hosts come before P0's degraded ones.
		{"degraded do not stop the spill", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 10, 8, 2), prioHosts(1, 10, 10, 0)), PanicThreshold: 50},
			FailFileOrder, []Budget{b(0, -1, -1), b(-1, -1, -1)}},
		// ... but count toward the panic percentage: 4+3 of 10, panic below 5.
		{"degraded count for panic", lbmodel.ClusterInput{Hosts: prioHosts(0, 10, 4, 3), PanicThreshold: 50},
			FailFileOrder, []Budget{b(-1, 2, 2)}},
		// Weighted priority health, weights 6,1,1,1,1: file order fails the
		// 1s (9, 8 of 10 weight keep 100; 7 is 98), weight order the 6.
		{"weighted file order", lbmodel.ClusterInput{Hosts: cat(w(prioHosts(0, 5, 5, 0), 6, 1, 1, 1, 1), prioHosts(1, 1, 1, 0)), WeightedPriorityHealth: true, PanicThreshold: 50},
			FailFileOrder, []Budget{b(2, -1, -1), b(-1, -1, -1)}},
		{"weighted heaviest first", lbmodel.ClusterInput{Hosts: cat(w(prioHosts(0, 5, 5, 0), 6, 1, 1, 1, 1), prioHosts(1, 1, 1, 0)), WeightedPriorityHealth: true, PanicThreshold: 50},
			FailHeaviestFirst, []Budget{b(0, -1, -1), b(-1, -1, -1)}},
		{"weights ignored without weighted health", lbmodel.ClusterInput{Hosts: cat(w(prioHosts(0, 5, 5, 0), 6, 1, 1, 1, 1), prioHosts(1, 1, 1, 0)), PanicThreshold: 50},
			FailHeaviestFirst, []Budget{b(1, -1, -1), b(-1, -1, -1)}},
		// Empty P0 (a gap): nothing to fail, never panics while P1 keeps
		// T at 100; once P1 has 7 of 10 the empty P0 panics, P1 at 4 of 10
		// too: total panic, still all of it on P1 by host count.
		{"empty priority", lbmodel.ClusterInput{Hosts: prioHosts(1, 10, 10, 0), PanicThreshold: 50},
			FailFileOrder, []Budget{b(-1, -1, -1), b(-1, 5, 5)}},
		// P0 2 of 10 (28) and P1 5 of 10 (70): T 98, P0 already in panic.
		{"already in panic is 0", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 10, 2, 0), prioHosts(1, 10, 5, 0)), PanicThreshold: 50},
			FailFileOrder, []Budget{b(0, 0, -1), b(0, 0, 0)}},
		// DRAINING hosts are excluded, never failed: 7 healthy of 8 counted.
		{"excluded hosts", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 10, 7, 0)[:8], []lbmodel.Host{{Priority: 0, Status: lbmodel.StatusDraining}, {Priority: 0, Status: lbmodel.StatusDraining}},
			prioHosts(1, 1, 1, 0)), PanicThreshold: 50},
			FailFileOrder, []Budget{b(1, -1, -1), b(-1, -1, -1)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkBudgets(t, ClusterBudgets(c.in, c.order), c.want) })
	}
}

func ab(spill, panic, total, failover int) AggregateBudget {
	x := b(spill, panic, total)
	y := b(failover, -1, -1)
	return AggregateBudget{Budget: x, BeforeFailover: y.BeforeSpill}
}

func TestAggregateBudgets(t *testing.T) {
	in := func(name string, hs ...[]lbmodel.Host) lbmodel.AggregateChildInput {
		return lbmodel.AggregateChildInput{Name: name, Kind: lbmodel.ChildPresent, Cluster: lbmodel.ClusterInput{Hosts: cat(hs...), PanicThreshold: 50}}
	}
	cases := []struct {
		name      string
		children  []lbmodel.AggregateChildInput
		threshold int
		want      []AggregateBudget
	}{
		// Seed 000 row 1 (100 hosts per level, all healthy): primary P0
		// spills to P1 after 28, and never past the primary.
		{"seed000 row1", []lbmodel.AggregateChildInput{
			in("primary", prioHosts(0, 100, 100, 0), prioHosts(1, 100, 100, 0), prioHosts(2, 100, 100, 0)),
			in("secondary", prioHosts(0, 100, 100, 0), prioHosts(1, 100, 100, 0))}, 50,
			[]AggregateBudget{ab(28, -1, -1, -1), ab(-1, -1, -1, -1), ab(-1, -1, -1, -1), ab(-1, -1, -1, -1), ab(-1, -1, -1, -1)}},
		// Row 3 (71/1/0, 100/100): the next P0 failure gives 98/1/0/1.
		{"seed000 row3", []lbmodel.AggregateChildInput{
			in("primary", prioHosts(0, 100, 71, 0), prioHosts(1, 100, 1, 0), prioHosts(2, 100, 0, 0)),
			in("secondary", prioHosts(0, 100, 100, 0), prioHosts(1, 100, 100, 0))}, 50,
			[]AggregateBudget{ab(0, -1, -1, 0), ab(0, -1, -1, 0), ab(-1, -1, -1, -1), ab(-1, -1, -1, -1), ab(-1, -1, -1, -1)}},
		// One level each, 10 hosts: primary fails over at 7 left; the
		// secondary has no load to lose.
		{"two single-level children", []lbmodel.AggregateChildInput{in("primary", prioHosts(0, 10, 10, 0)), in("secondary", prioHosts(0, 10, 10, 0))}, 50,
			[]AggregateBudget{ab(2, -1, -1, 2), ab(-1, -1, -1, -1)}},
		// Secondary at 3 of 10 (42): T < 100 once primary is at 5 (70);
		// primary panics below 5 healthy (4: 56+42 = 98), the secondary is
		// already in panic at that point: total panic together.
		{"aggregate total panic", []lbmodel.AggregateChildInput{in("primary", prioHosts(0, 10, 10, 0)), in("secondary", prioHosts(0, 10, 3, 0))}, 50,
			[]AggregateBudget{ab(2, 5, 5, 2), ab(-1, -1, -1, -1)}},
		{"aggregate threshold 0", []lbmodel.AggregateChildInput{in("primary", prioHosts(0, 10, 10, 0)), in("secondary", prioHosts(0, 10, 3, 0))}, 0,
			[]AggregateBudget{ab(2, -1, -1, 2), ab(-1, -1, -1, -1)}},
		// A child listed twice is one host set: failing its hosts fails
		// both occurrences, so the second (no load of its own) has the
		// child's failover budget too.
		{"duplicate child", []lbmodel.AggregateChildInput{in("a", prioHosts(0, 10, 10, 0)), in("b", prioHosts(0, 10, 10, 0)), in("a", prioHosts(0, 10, 10, 0))}, 50,
			[]AggregateBudget{ab(2, -1, -1, 2), ab(-1, -1, -1, -1), ab(-1, -1, -1, 2)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := AggregateBudgets(c.children, c.threshold, FailFileOrder)
			if len(got) != len(c.want) {
				t.Fatalf("%d budgets, want %d", len(got), len(c.want))
			}
			for i := range got {
				g, w := fmtBudget(got[i].Budget)+fmtBudget(b(ptrv(got[i].BeforeFailover), -1, -1)),
					fmtBudget(c.want[i].Budget)+fmtBudget(b(ptrv(c.want[i].BeforeFailover), -1, -1))
				if g != w {
					t.Errorf("level %d: %s, want %s", i, g, w)
				}
			}
		})
	}
}

func ptrv(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// failHosts turns the first k healthy hosts of priority p, in the order
// given, UNHEALTHY, computed independently of failWeights: file order is
// last first; weight order heaviest first, ties last first.
func failHosts(hosts []lbmodel.Host, p, k int, order FailOrder) []lbmodel.Host {
	var idx []int
	for i, h := range hosts {
		if h.Priority == p && h.Status.Coarse() == lbmodel.Healthy && !h.Status.Excluded() {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		if order == FailHeaviestFirst {
			if c := cmp.Compare(lbmodel.HostWeight(hosts[b]), lbmodel.HostWeight(hosts[a])); c != 0 {
				return c
			}
		}
		return b - a
	})
	out := slices.Clone(hosts)
	for _, i := range idx[:k] {
		out[i].Status = lbmodel.StatusUnhealthy
	}
	return out
}

// TestBudgetProperty: for random small clusters, failing exactly the
// budget keeps each state and failing one more changes it; a "never"
// budget survives every healthy host of the level failing.
func TestBudgetProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 17))
	statuses := []lbmodel.HealthStatus{lbmodel.StatusHealthy, lbmodel.StatusHealthy, lbmodel.StatusUnknown, lbmodel.StatusUnhealthy, lbmodel.StatusDraining, lbmodel.StatusDegraded}
	opfs := []uint32{0, 100, 140, 200}
	seen := map[string]bool{}
	for iter := 0; iter < 3000; iter++ {
		var hosts []lbmodel.Host
		for p := range 1 + r.IntN(3) {
			for range r.IntN(12) {
				hosts = append(hosts, lbmodel.Host{Priority: p, Weight: uint32(r.IntN(5)), Status: statuses[r.IntN(len(statuses))]})
			}
		}
		c := lbmodel.ClusterInput{Hosts: hosts, OverprovisioningFactor: opfs[r.IntN(len(opfs))],
			WeightedPriorityHealth: r.IntN(2) == 0, PanicThreshold: []int{0, 30, 50, 100}[r.IntN(4)]}
		order := FailOrder(r.IntN(2))
		budgets := ClusterBudgets(c, order)
		levels := clusterLevels(c)
		if len(budgets) != len(levels) {
			t.Fatalf("%d budgets for %d levels", len(budgets), len(levels))
		}
		for p, bud := range budgets {
			stateAt := func(k int) budgetState {
				c2 := c
				c2.Hosts = failHosts(hosts, p, k, order)
				pl := lbmodel.ComputePriorityLoad(clusterLevels(c2), c.PanicThreshold)
				l := pl.Levels[p]
				return budgetState{load: l.HealthyLoad + l.DegradedLoad, panic: l.Panic, total: pl.TotalPanic}
			}
			base := stateAt(0)
			n := levels[p].Healthy
			checks := []struct {
				name    string
				budget  *int
				already bool
				changed func(s budgetState) bool
			}{
				{"spill", bud.BeforeSpill, false, func(s budgetState) bool { return s.load < base.load }},
				{"panic", bud.BeforePanic, base.panic, func(s budgetState) bool { return s.panic }},
				{"total", bud.BeforeTotalPanic, base.total, func(s budgetState) bool { return s.total }},
			}
			for _, ch := range checks {
				switch {
				case ch.already:
					if ch.budget == nil || *ch.budget != 0 {
						t.Fatalf("%+v P%d %s: already reached, budget %v", c, p, ch.name, ch.budget)
					}
				case ch.budget == nil:
					for k := 0; k <= n; k++ {
						if ch.changed(stateAt(k)) {
							t.Fatalf("%+v %v P%d %s: never, but %d failures change it", c, order, p, ch.name, k)
						}
					}
					seen[ch.name+" never"] = true
				default:
					k := *ch.budget
					for j := 0; j <= k; j++ {
						if ch.changed(stateAt(j)) {
							t.Fatalf("%+v %v P%d %s: budget %d, but %d failures change it", c, order, p, ch.name, k, j)
						}
					}
					if k+1 > n || !ch.changed(stateAt(k+1)) {
						t.Fatalf("%+v %v P%d %s: budget %d, but %d failures keep it (of %d)", c, order, p, ch.name, k, k+1, n)
					}
					seen[ch.name+" finite"] = true
				}
			}
		}
	}
	for _, k := range []string{"spill never", "spill finite", "panic never", "panic finite", "total never", "total finite"} {
		if !seen[k] {
			t.Errorf("generator never produced %s", k)
		}
	}
}
