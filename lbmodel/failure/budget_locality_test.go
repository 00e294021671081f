package failure

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// locHosts is n hosts of priority p in zone z (locality weight lw), the
// first healthy of them HEALTHY, the rest UNHEALTHY.
func locHosts(p int, z string, lw uint32, n, healthy int) []lbmodel.Host {
	out := prioHosts(p, n, healthy, 0)
	for i := range out {
		out[i].Address = fmt.Sprintf("10.%d.%s.%d:80", p, z, i)
		out[i].Locality = lbmodel.Locality{Region: "r", Zone: z}
		out[i].LocalityWeight = lw
	}
	return out
}

func lb(spill, panic, total, shift int) LocalityBudget {
	return LocalityBudget{Budget: b(spill, panic, total), BeforeShift: b(shift, -1, -1).BeforeSpill}
}

func fmtLocalityBudget(x LocalityBudget) string {
	shift := "never"
	if x.BeforeShift != nil {
		shift = fmt.Sprint(*x.BeforeShift)
	}
	return fmtBudget(x.Budget) + " shift " + shift
}

// TestLocalityBudgets: hand-derived. A locality's effective weight is
// weight·min(1, 1.4·healthy/hosts) (LocalityWrr::effectiveLocalityWeight),
// so 10 hosts keep it down to 8 healthy (1.12), 4 hosts down to 3 (1.05).
func TestLocalityBudgets(t *testing.T) {
	cases := []struct {
		name  string
		in    lbmodel.ClusterInput
		order FailOrder
		want  [][]LocalityBudget
	}{
		// P0 a,b 10 hosts each: a's weight drops at 7 healthy (0.98), P0's
		// health 140·15/20 = 105 still 100, 14 of 20 is 98: spill after 5.
		// P0 at 10 of 20 is 50%, not below 50: never panics. P1 takes no
		// load, but its one locality loses its share of P1 (1 → 0) when
		// its last healthy host fails.
		{"two localities and P1", lbmodel.ClusterInput{Hosts: cat(locHosts(0, "a", 1, 10, 10), locHosts(0, "b", 1, 10, 10), locHosts(1, "c", 1, 10, 10)),
			PanicThreshold: 50, LocalityWeighted: true}, FailFileOrder,
			[][]LocalityBudget{{lb(5, -1, -1, 2), lb(5, -1, -1, 2)}, {lb(-1, -1, -1, 9)}}},
		// Weights 3 and 1, 4 hosts each: a's weight drops at 2 of 4 (0.7);
		// P0 140·6/8 = 105, 5 of 8 is 87: spill after 2.
		{"weighted localities", lbmodel.ClusterInput{Hosts: cat(locHosts(0, "a", 3, 4, 4), locHosts(0, "b", 1, 4, 4), locHosts(1, "c", 1, 4, 4)),
			PanicThreshold: 50, LocalityWeighted: true}, FailFileOrder,
			[][]LocalityBudget{{lb(2, -1, -1, 1), lb(2, -1, -1, 1)}, {lb(-1, -1, -1, 3)}}},
		// One priority (a 5 of 5, b 3 of 5): it never spills. Failing a,
		// 4 of 10 left is 40% < 50 with availability 56: panic and total
		// panic at the 4th. a's weight drops at 3 of 5 (0.84). Failing
		// all of b leaves 5 of 10, not below 50: never; b's weight is
		// already below 1, so its first failure shifts.
		{"panic", lbmodel.ClusterInput{Hosts: cat(locHosts(0, "a", 1, 5, 5), locHosts(0, "b", 1, 5, 3)),
			PanicThreshold: 50, LocalityWeighted: true}, FailFileOrder,
			[][]LocalityBudget{{lb(-1, 3, 3, 1), lb(-1, -1, -1, 0)}}},
		// Zone-aware, node in a, local cluster a:5 b:5, upstream a:5 b:5:
		// LocalityDirect (a gets everything); one failure in a makes a
		// 4/9 of the upstream against 5/10 of the local: residual, a's
		// share drops. b losing a host keeps a's 5/9 above 1/2: direct.
		{"zone-aware", lbmodel.ClusterInput{Hosts: cat(locHosts(0, "a", 0, 5, 5), locHosts(0, "b", 0, 5, 5)), PanicThreshold: 50,
			HasLocalCluster: true, LocalCluster: cat(locHosts(0, "a", 0, 5, 5), locHosts(0, "b", 0, 5, 5)),
			NodeLocality: lbmodel.Locality{Region: "r", Zone: "a"}, HasNodeLocality: true}, FailFileOrder,
			[][]LocalityBudget{{lb(-1, -1, -1, 0), lb(-1, -1, -1, -1)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := LocalityBudgets(c.in, c.order)
			if err != nil || !ok {
				t.Fatal(ok, err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d priorities, want %d", len(got), len(c.want))
			}
			for p := range c.want {
				if len(got[p]) != len(c.want[p]) {
					t.Fatalf("P%d: %d localities, want %d", p, len(got[p]), len(c.want[p]))
				}
				for i := range c.want[p] {
					if g, w := fmtLocalityBudget(got[p][i]), fmtLocalityBudget(c.want[p][i]); g != w {
						t.Errorf("P%d locality %d: %s, want %s", p, i, g, w)
					}
				}
			}
		})
	}
}

// TestLocalityBudgetProperty: failing exactly a locality's budget keeps
// each state, one more host changes it, "never" survives the whole
// locality failing. The states are read from ClusterShares.
func TestLocalityBudgetProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 11))
	statuses := []lbmodel.HealthStatus{lbmodel.StatusHealthy, lbmodel.StatusHealthy, lbmodel.StatusHealthy, lbmodel.StatusUnhealthy, lbmodel.StatusDraining, lbmodel.StatusDegraded}
	zones := []string{"a", "b", "c"}
	seen := map[string]bool{}
	for iter := 0; iter < 600; iter++ {
		var hosts []lbmodel.Host
		for p := range 1 + r.IntN(2) {
			for range r.IntN(14) {
				z := zones[r.IntN(len(zones))]
				hosts = append(hosts, lbmodel.Host{Priority: p, Weight: uint32(1 + r.IntN(3)), Status: statuses[r.IntN(len(statuses))],
					Locality: lbmodel.Locality{Zone: z}, LocalityWeight: uint32(1 + len(z)%2)})
			}
		}
		c := lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: []int{0, 50, 100}[r.IntN(3)], LocalityWeighted: r.IntN(3) > 0,
			OverprovisioningFactor: []uint32{0, 100, 200}[r.IntN(3)], WeightedPriorityHealth: r.IntN(2) == 0}
		if !c.LocalityWeighted {
			c.HasLocalCluster, c.NodeLocality, c.HasNodeLocality = true, lbmodel.Locality{Zone: "a"}, true
			for range 2 + r.IntN(8) {
				c.LocalCluster = append(c.LocalCluster, lbmodel.Host{Status: lbmodel.StatusHealthy, Locality: lbmodel.Locality{Zone: zones[r.IntN(len(zones))]}})
			}
		}
		order := FailOrder(r.IntN(2))
		got, ok, err := LocalityBudgets(c, order)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		for p := range got {
			groups := lbmodel.GroupLocalities(hosts, p, c.NodeLocality, c.HasNodeLocality).Groups
			for gi, g := range groups {
				// Independent of failIndices: sort the locality's healthy
				// hosts by (weight desc when by weight, then index desc).
				idx := slices.Clone(g.Healthy)
				slices.SortFunc(idx, func(x, y int) int {
					if order == FailHeaviestFirst && lbmodel.HostWeight(hosts[x]) != lbmodel.HostWeight(hosts[y]) {
						return int(lbmodel.HostWeight(hosts[y])) - int(lbmodel.HostWeight(hosts[x]))
					}
					return y - x
				})
				type st struct {
					load         int
					panic, total bool
					share        float64
				}
				at := func(k int) st {
					c2 := c
					c2.Hosts = slices.Clone(hosts)
					for _, i := range idx[:k] {
						c2.Hosts[i].Status = lbmodel.StatusUnhealthy
					}
					sh, err := lbmodel.ClusterShares(c2)
					if err != nil {
						t.Fatal(err)
					}
					l := sh.Load.Levels[p]
					return st{l.HealthyLoad + l.DegradedLoad, l.Panic, sh.Load.TotalPanic, sh.Priorities[p].Localities[gi].Share}
				}
				base := at(0)
				bud := got[p][gi]
				checks := []struct {
					name    string
					budget  *int
					already bool
					changed func(s st) bool
				}{
					{"spill", bud.BeforeSpill, false, func(s st) bool { return s.load < base.load }},
					{"panic", bud.BeforePanic, base.panic, func(s st) bool { return s.panic }},
					{"total", bud.BeforeTotalPanic, base.total, func(s st) bool { return s.total }},
					{"shift", bud.BeforeShift, false, func(s st) bool { return s.share < base.share-1e-12 }},
				}
				n := len(idx)
				for _, ch := range checks {
					switch {
					case ch.already:
						if ch.budget == nil || *ch.budget != 0 {
							t.Fatalf("%+v P%d loc %d %s: already reached, budget %v", c, p, gi, ch.name, ch.budget)
						}
					case ch.budget == nil:
						for k := 0; k <= n; k++ {
							if ch.changed(at(k)) {
								t.Fatalf("%+v P%d loc %d %s: never, but %d failures change it", c, p, gi, ch.name, k)
							}
						}
						seen[ch.name+" never"] = true
					default:
						k := *ch.budget
						for j := 0; j <= k; j++ {
							if ch.changed(at(j)) {
								t.Fatalf("%+v P%d loc %d %s: budget %d, but %d failures change it", c, p, gi, ch.name, k, j)
							}
						}
						if k+1 > n || !ch.changed(at(k+1)) {
							t.Fatalf("%+v P%d loc %d %s: budget %d, but %d failures keep it (of %d)", c, p, gi, ch.name, k, k+1, n)
						}
						seen[ch.name+" finite"] = true
					}
				}
			}
		}
	}
	for _, k := range []string{"spill never", "spill finite", "panic never", "panic finite", "total never", "total finite", "shift never", "shift finite"} {
		if !seen[k] {
			t.Errorf("generator never produced %s", k)
		}
	}
}

func TestLocalityBudgetsBound(t *testing.T) {
	hosts := locHosts(0, "a", 1, 5000, 5000)
	if _, ok, err := LocalityBudgets(lbmodel.ClusterInput{Hosts: hosts, LocalityWeighted: true, PanicThreshold: 50}, FailFileOrder); ok || err != nil {
		t.Fatalf("ok %v err %v, want the bound to refuse 5000×5000", ok, err)
	}
}
