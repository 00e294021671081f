package failure

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/internal/seedcases"
)

// levelHosts turns shared seed levels (counts only, default OPF) into
// hosts: per level the healthy first, then the degraded.
func levelHosts(levels []seedcases.Level) []lbmodel.Host {
	var out []lbmodel.Host
	for p, l := range levels {
		out = append(out, prioHosts(p, l.Hosts, l.Healthy, l.Degraded)...)
	}
	return out
}

// hostsIn builds n hosts of one locality, the first healthy of them healthy
// and the rest UNHEALTHY.
func hostsIn(loc lbmodel.Locality, weight uint32, priority, n, healthy int) []lbmodel.Host {
	out := make([]lbmodel.Host, n)
	for i := range out {
		out[i] = lbmodel.Host{Locality: loc, LocalityWeight: weight, Priority: priority, Weight: 1, Status: lbmodel.StatusHealthy}
		if i >= healthy {
			out[i].Status = lbmodel.StatusUnhealthy
		}
	}
	return out
}

var (
	locX = lbmodel.Locality{Region: "r", Zone: "x"}
	locY = lbmodel.Locality{Region: "r", Zone: "y"}
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// clusterLoads turns shared seed cluster loads into lbmodel's.
func clusterLoads(ls []seedcases.ClusterLoad) []lbmodel.ClusterLoad {
	var out []lbmodel.ClusterLoad
	for _, l := range ls {
		out = append(out, lbmodel.ClusterLoad{Cluster: l.Cluster, Load: l.Load})
	}
	return out
}

// findRow returns the row whose varied levels have the given healthy counts.
func findRow(t *testing.T, s Sweep, healthy ...int) SweepRow {
	t.Helper()
	for _, r := range s.Rows {
		ok := len(r.Steps) == len(healthy)
		for i := range r.Steps {
			ok = ok && r.Steps[i].Healthy == healthy[i]
		}
		if ok {
			return r
		}
	}
	t.Fatalf("no row with healthy %v", healthy)
	return SweepRow{}
}

func rowLoads(r SweepRow) (h, d []int, p []bool) {
	for _, l := range r.Priorities {
		h = append(h, l.HealthyLoad)
		d = append(d, l.DegradedLoad)
		p = append(p, l.Panic)
	}
	return h, d, p
}

// TestSweepSeed001 reproduces every row of seed 001's priority tables
// (seedcases.Seed001, errata 4, 6 and 7 of priority.md §9 included) as rows of
// a P0×P1 grid sweep.
func TestSweepSeed001(t *testing.T) {
	for _, c := range seedcases.Seed001 {
		t.Run(c.Name, func(t *testing.T) {
			s, err := SweepCluster("c", lbmodel.ClusterInput{Hosts: levelHosts(c.Levels), PanicThreshold: c.Threshold}, []int{0, 1}, SweepOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if n0, n1 := c.Levels[0].Hosts, c.Levels[1].Hosts; len(s.Rows) != (n0+1)*(n1+1) {
				t.Fatalf("%d rows, want %d", len(s.Rows), (n0+1)*(n1+1))
			}
			r := findRow(t, s, c.Levels[0].Healthy, c.Levels[1].Healthy)
			h, d, p := rowLoads(r)
			wantD := c.Degraded
			if wantD == nil {
				wantD = make([]int, len(c.Levels))
			}
			if !slices.Equal(h, c.Healthy) || !slices.Equal(d, wantD) {
				t.Errorf("loads %v/%v, want %v/%v", h, d, c.Healthy, wantD)
			}
			if c.Panic != nil && !slices.Equal(p, c.Panic) {
				t.Errorf("panic %v, want %v", p, c.Panic)
			}
			if r.TotalPanic != c.TotalPanic {
				t.Errorf("total panic %v, want %v", r.TotalPanic, c.TotalPanic)
			}
		})
	}
}

// TestSweepSeed000 reproduces seed 000's table rows (seedcases.Seed000, errata
// 1 and 2 of priority.md §9 included) as rows of a grid over the two
// children's P0.
func TestSweepSeed000(t *testing.T) {
	for _, c := range seedcases.Seed000 {
		t.Run(c.Name, func(t *testing.T) {
			var in []lbmodel.AggregateChildInput
			for _, ch := range c.Children {
				in = append(in, lbmodel.AggregateChildInput{Name: ch.Name, Kind: lbmodel.ChildPresent,
					Cluster: lbmodel.ClusterInput{Hosts: levelHosts(ch.Levels), PanicThreshold: 50}})
			}
			vary := []Varied{{Cluster: in[0].Name, Priority: 0}, {Cluster: in[1].Name, Priority: 0}}
			s, err := SweepAggregate("agg", in, c.Threshold, vary, SweepOptions{Step: 1})
			if err != nil {
				t.Fatal(err)
			}
			r := findRow(t, s, c.Children[0].Levels[0].Healthy, c.Children[1].Levels[0].Healthy)
			var lin []string
			for _, l := range r.Priorities {
				lin = append(lin, l.Cluster+"/"+string(rune('0'+l.Priority)))
			}
			h, d, _ := rowLoads(r)
			wantD := c.Degraded
			if wantD == nil {
				wantD = make([]int, len(c.Healthy))
			}
			if !slices.Equal(lin, c.Linear) || !slices.Equal(h, c.Healthy) || !slices.Equal(d, wantD) {
				t.Errorf("levels %v loads %v/%v, want %v %v/%v", lin, h, d, c.Linear, c.Healthy, wantD)
			}
			if wantC := clusterLoads(c.Clusters); !slices.Equal(r.ClusterLoad, wantC) || r.TotalPanic != c.TotalPanic {
				t.Errorf("cluster loads %v total panic %v, want %v %v", r.ClusterLoad, r.TotalPanic, wantC, c.TotalPanic)
			}
		})
	}
}

// TestSweepSeed003 reproduces seed 003's locality table (seedcases.Seed003;
// locality.md §6 erratum 1 for the 69% row) from per-host shares: P0 is
// Y's 100 hosts (weight 2) then X's 100 (weight 1), so as the sweep lowers
// P0's healthy count from 200, X loses hosts while Y stays healthy.
func TestSweepSeed003(t *testing.T) {
	hosts := append(hostsIn(locY, 2, 0, 100, 100), hostsIn(locX, 1, 0, 100, 100)...)
	s, err := SweepCluster("c", lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: 50, LocalityWeighted: true}, []int{0}, SweepOptions{Hosts: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 201 {
		t.Fatalf("%d rows, want 201", len(s.Rows))
	}
	for _, want := range seedcases.Seed003 {
		r := findRow(t, s, 100+want.Healthy)
		x, y := 0.0, 0.0
		for i, h := range r.Hosts {
			if hosts[i].Locality == locX {
				x += h.Share
			} else {
				y += h.Share
			}
		}
		if !near(x, want.X, 1e-9) || !near(x+y, 1, 1e-9) {
			t.Errorf("X %d%%: share %.9f, want %.9f", want.Healthy, x, want.X)
		}
		px, py := int(math.Round(100*x)), int(math.Round(100*y))
		if want.Erratum { // locality.md §6 erratum 1: the seed's 32/68 is 33/67 in the code
			if px != 33 || py != 67 {
				t.Errorf("69%% row: %d/%d, want 33/67 (erratum)", px, py)
			}
		} else if px != want.SeedX || py != want.SeedY {
			t.Errorf("X %d%%: %d/%d, seed says %d/%d", want.Healthy, px, py, want.SeedX, want.SeedY)
		}
	}
}

func TestSweepSteps(t *testing.T) {
	cases := []struct {
		n    int
		step float64
		want []int
	}{
		{3, 0, []int{3, 2, 1, 0}},
		{10, 25, []int{10, 8, 5, 3, 0}}, // 7.5 and 2.5 round half up, as --set-health
		{3, 50, []int{3, 2, 0}},         // 50% of 3 is 2
		{2, 10, []int{2, 1, 0}},         // repeats dropped
		{4, 30, []int{4, 3, 2, 0}},      // 100, 70, 40, 10 → 4, 3, 2, 0
		{0, 0, []int{0}},
	}
	for _, c := range cases {
		if got := stepCounts(c.n, c.step); !slices.Equal(got, c.want) {
			t.Errorf("stepCounts(%d, %v) = %v, want %v", c.n, c.step, got, c.want)
		}
	}
}

func TestSweepJSON(t *testing.T) {
	hosts := cat(prioHosts(0, 2, 2, 0), prioHosts(1, 2, 2, 0))
	s, err := SweepCluster("c", lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: 50}, []int{0}, SweepOptions{Hosts: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(s.Rows[1])
	if err != nil {
		t.Fatal(err)
	}
	// 1 of 2 healthy: health 70, load 70/30.
	want := `{"healthy":1,"total":2,"health":50,"priorities":[` +
		`{"priority":0,"health":70,"healthy_load":70,"degraded_load":0,"panic":false},` +
		`{"priority":1,"health":100,"healthy_load":30,"degraded_load":0,"panic":false}],"total_panic":false,` +
		`"hosts":[{"address":"10.0.0.0:80","share":0.7},{"address":"10.0.0.1:80","share":0},` +
		`{"address":"10.0.1.0:80","share":0.15},{"address":"10.0.1.1:80","share":0.15}]}`
	if string(got) != want {
		t.Errorf("row JSON\n%s\nwant\n%s", got, want)
	}
	g, err := SweepCluster("c", lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: 50}, []int{0, 1}, SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(g)
	if !strings.HasPrefix(string(all), `{"cluster":"c","varied":{"cluster":"c","priority":0},"grid":{"cluster":"c","priority":1},"rows":[{"healthy_p0":2,"total_p0":2,"health_p0":100,"healthy_p1":2,"total_p1":2,"health_p1":100,"priorities":`) {
		t.Errorf("grid JSON %s", all)
	}
	if len(g.Rows) != 9 {
		t.Errorf("grid has %d rows, want 9", len(g.Rows))
	}
}

func TestSweepAggregateJSONAndChild(t *testing.T) {
	in := []lbmodel.AggregateChildInput{
		{Name: "primary", Kind: lbmodel.ChildPresent, Cluster: lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 2, 2, 0), prioHosts(1, 1, 1, 0)), PanicThreshold: 50}},
		{Name: "secondary", Kind: lbmodel.ChildPresent, Cluster: lbmodel.ClusterInput{Hosts: prioHosts(0, 1, 1, 0), PanicThreshold: 50}},
	}
	// The whole primary: its 3 hosts in file order, P1's host last.
	s, err := SweepAggregate("agg", in, 50, []Varied{{Cluster: "primary", Priority: -1}}, SweepOptions{Hosts: true})
	if err != nil {
		t.Fatal(err)
	}
	var loads [][]lbmodel.ClusterLoad
	for _, r := range s.Rows {
		loads = append(loads, r.ClusterLoad)
	}
	// 3: 100/0; 2 (P0 full, P1 down): 100/0; 1 (P0 1 of 2 = 70): 70/30;
	// 0: primary levels 0, secondary 100.
	want := [][]lbmodel.ClusterLoad{cl2(100, 0), cl2(100, 0), cl2(70, 30), cl2(0, 100)}
	for i := range want {
		if !slices.Equal(loads[i], want[i]) {
			t.Errorf("row %d cluster loads %v, want %v", i, loads[i], want[i])
		}
	}
	got, _ := json.Marshal(s.Rows[2])
	if !strings.Contains(string(got), `"cluster_load":[{"cluster":"primary","load":70},{"cluster":"secondary","load":30}]`) ||
		!strings.HasPrefix(string(got), `{"healthy":1,"total":3,"health":33.33`) ||
		!strings.Contains(string(got), `{"cluster":"secondary","address":"10.0.0.0:80","share":0.3}`) {
		t.Errorf("aggregate row JSON %s", got)
	}
	for _, bad := range [][]Varied{nil, {{Cluster: "nope"}}, {{Cluster: "secondary", Priority: 3}},
		{{Cluster: "primary"}, {Cluster: "primary"}}, {{Cluster: "primary", Priority: -1}, {Cluster: "primary", Priority: 1}}} {
		if _, err := SweepAggregate("agg", in, 50, bad, SweepOptions{}); err == nil {
			t.Errorf("vary %v: no error", bad)
		}
	}
	if _, err := SweepCluster("c", in[1].Cluster, []int{1}, SweepOptions{}); err == nil {
		t.Error("priority without hosts: no error")
	}
}

func cl2(p, s int) []lbmodel.ClusterLoad {
	return []lbmodel.ClusterLoad{{Cluster: "primary", Load: p}, {Cluster: "secondary", Load: s}}
}

// TestBudgetMatchesSweep: with every host of a level healthy, the file
// order budget is what --set-health (a sweep row) shows: n-b healthy keeps
// the state, n-b-1 changes it.
func TestBudgetMatchesSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 300; iter++ {
		var hosts []lbmodel.Host
		levels := 1 + r.IntN(3)
		for p := range levels {
			hosts = append(hosts, prioHosts(p, 1+r.IntN(15), 0, 0)...)
		}
		p := r.IntN(levels)
		hosts = SetHealth(hosts, -1, 0)
		for i := range hosts { // other levels random, the varied level all healthy
			if hosts[i].Priority == p || r.IntN(2) == 0 {
				hosts[i].Status = lbmodel.StatusHealthy
			}
		}
		c := lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: []int{0, 50, 100}[r.IntN(3)], OverprovisioningFactor: []uint32{100, 140, 200}[r.IntN(3)]}
		bud := ClusterBudgets(c, FailFileOrder)[p]
		s, err := SweepCluster("c", c, []int{p}, SweepOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := s.Rows[0].Steps[0].Total
		base := s.Rows[0].Priorities[p]
		load := func(l SweepLevel) int { return l.HealthyLoad + l.DegradedLoad }
		check := func(name string, b *int, changed func(SweepRow) bool) {
			if b == nil {
				if changed(s.Rows[n]) {
					t.Fatalf("%+v P%d %s: never, but changed with all failed", c, p, name)
				}
				return
			}
			if changed(s.Rows[*b]) || !changed(s.Rows[*b+1]) {
				t.Fatalf("%+v P%d %s: budget %d disagrees with the sweep", c, p, name, *b)
			}
		}
		if base.Panic || s.Rows[0].TotalPanic {
			continue
		}
		check("spill", bud.BeforeSpill, func(r SweepRow) bool { return load(r.Priorities[p]) < load(base) })
		check("panic", bud.BeforePanic, func(r SweepRow) bool { return r.Priorities[p].Panic })
		check("total", bud.BeforeTotalPanic, func(r SweepRow) bool { return r.TotalPanic })
	}
}

func TestSweepCSV(t *testing.T) {
	s, err := SweepCluster("c", lbmodel.ClusterInput{Hosts: cat(prioHosts(0, 2, 2, 0), prioHosts(1, 2, 2, 0)), PanicThreshold: 50}, []int{0}, SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"healthy", "total", "health", "p0_load", "p1_load", "p0_panic", "p1_panic", "total_panic"},
		{"2", "2", "100", "100", "0", "false", "false", "false"},
		{"1", "2", "50", "70", "30", "false", "false", "false"},
		{"0", "2", "0", "0", "100", "false", "false", "false"},
	}
	if got := s.CSV(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("CSV\n%v\nwant\n%v", got, want)
	}
	in := []lbmodel.AggregateChildInput{
		{Name: "primary", Kind: lbmodel.ChildPresent, Cluster: lbmodel.ClusterInput{Hosts: prioHosts(0, 3, 3, 0)}},
		{Name: "secondary", Kind: lbmodel.ChildPresent, Cluster: lbmodel.ClusterInput{Hosts: prioHosts(0, 1, 1, 0)}},
	}
	g, err := SweepAggregate("agg", in, 50, []Varied{{"primary", 0}, {"secondary", 0}}, SweepOptions{Step: 50})
	if err != nil {
		t.Fatal(err)
	}
	csv := g.CSV()
	head := []string{"healthy_primary_p0", "total_primary_p0", "health_primary_p0", "healthy_secondary_p0", "total_secondary_p0", "health_secondary_p0",
		"primary", "secondary", "primary_p0_panic", "secondary_p0_panic", "total_panic"}
	if !slices.Equal(csv[0], head) {
		t.Errorf("head %v, want %v", csv[0], head)
	}
	// Steps 100, 50, 0 percent: 3, 2, 0 of 3 (half up) × 1, 1, 0 of 1
	// (50% of 1 rounds to 1, a repeat). 0 of 3 and 0 of 1: total panic by
	// host count, 3:1 → 75/25.
	if len(csv) != 1+3*2 || !slices.Equal(csv[6], []string{"0", "3", "0", "0", "1", "0", "75", "25", "true", "true", "true"}) {
		t.Errorf("CSV %v", csv)
	}
}

// TestAggregateBudgetProperty: as TestBudgetProperty, for random
// aggregates of two or three children (one possibly listed twice).
func TestAggregateBudgetProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	statuses := []lbmodel.HealthStatus{lbmodel.StatusHealthy, lbmodel.StatusHealthy, lbmodel.StatusUnhealthy, lbmodel.StatusDraining, lbmodel.StatusDegraded}
	names := []string{"a", "b", "c"}
	seen := map[string]bool{}
	for iter := 0; iter < 1500; iter++ {
		var in []lbmodel.AggregateChildInput
		for _, name := range names[:2+r.IntN(2)] {
			var hosts []lbmodel.Host
			for p := range 1 + r.IntN(2) {
				for range r.IntN(8) {
					hosts = append(hosts, lbmodel.Host{Priority: p, Weight: uint32(r.IntN(4)), Status: statuses[r.IntN(len(statuses))]})
				}
			}
			in = append(in, lbmodel.AggregateChildInput{Name: name, Kind: lbmodel.ChildPresent,
				Cluster: lbmodel.ClusterInput{Hosts: hosts, WeightedPriorityHealth: r.IntN(2) == 0, OverprovisioningFactor: []uint32{0, 100, 200}[r.IntN(3)]}})
		}
		if r.IntN(4) == 0 {
			in = append(in, in[0])
		}
		thr := []int{0, 50, 100}[r.IntN(3)]
		order := FailOrder(r.IntN(2))
		budgets := AggregateBudgets(in, thr, order)
		ac := func(fail string, p, k int) []lbmodel.AggregateChild {
			out := make([]lbmodel.AggregateChild, len(in))
			for i, c := range in {
				hs := c.Cluster.Hosts
				if c.Name == fail {
					hs = failHosts(hs, p, k, order)
				}
				c2 := c.Cluster
				c2.Hosts = hs
				out[i] = lbmodel.AggregateChild{Name: c.Name, Kind: c.Kind, Levels: clusterLevels(c2)}
			}
			return out
		}
		lin := lbmodel.Linearize(ac("", 0, 0))
		if len(budgets) != len(lin) {
			t.Fatalf("%d budgets for %d levels", len(budgets), len(lin))
		}
		for i, l := range lin {
			stateAt := func(k int) budgetState {
				a := lbmodel.ComputeAggregate(ac(l.Cluster, l.Priority, k), thr)
				ll := a.Load.Levels[i]
				s := budgetState{load: ll.HealthyLoad + ll.DegradedLoad, panic: ll.Panic, total: a.Load.TotalPanic}
				for _, c := range a.ClusterLoad {
					if c.Cluster == l.Cluster {
						s.clusterLoad = c.Load
					}
				}
				return s
			}
			base, n := stateAt(0), l.Healthy
			bud := budgets[i]
			for _, ch := range []struct {
				name    string
				b       *int
				already bool
				changed func(budgetState) bool
			}{
				{"spill", bud.BeforeSpill, false, func(s budgetState) bool { return s.load < base.load }},
				{"panic", bud.BeforePanic, base.panic, func(s budgetState) bool { return s.panic }},
				{"total", bud.BeforeTotalPanic, base.total, func(s budgetState) bool { return s.total }},
				{"failover", bud.BeforeFailover, false, func(s budgetState) bool { return s.clusterLoad < base.clusterLoad }},
			} {
				switch {
				case ch.already:
					if ch.b == nil || *ch.b != 0 {
						t.Fatalf("level %d %s: already reached, budget %v", i, ch.name, ch.b)
					}
				case ch.b == nil:
					for k := 0; k <= n; k++ {
						if ch.changed(stateAt(k)) {
							t.Fatalf("level %d %s: never, but %d failures change it", i, ch.name, k)
						}
					}
				default:
					for j := 0; j <= *ch.b; j++ {
						if ch.changed(stateAt(j)) {
							t.Fatalf("level %d %s: budget %d, but %d failures change it", i, ch.name, *ch.b, j)
						}
					}
					if *ch.b+1 > n || !ch.changed(stateAt(*ch.b+1)) {
						t.Fatalf("level %d %s: budget %d, but one more keeps it", i, ch.name, *ch.b)
					}
					seen[ch.name] = true
				}
			}
		}
	}
	for _, k := range []string{"spill", "panic", "total", "failover"} {
		if !seen[k] {
			t.Errorf("generator never produced a finite %s budget", k)
		}
	}
}
