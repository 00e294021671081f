package lbmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// testClusters are composition cases; each must sum to 1 (with NoHost) and
// is also checked against the Monte-Carlo simulator.
func testClusters() map[string]ClusterInput {
	p0 := append(hostsIn(locX, 1, 0, 4, 2), hostsIn(locY, 3, 0, 4, 4)...)
	p1 := hostsIn(locX, 1, 1, 3, 3)
	mixed := append(append([]Host{}, p0...), p1...)
	mixed[1].Status = StatusDegraded
	mixed[5].Weight = 3
	zoneUp := zoneHosts("A", 2, "B", 4, "C", 3)
	zoneUp[0].Weight = 5
	return map[string]ClusterInput{
		"rr two priorities":                  {Hosts: append(append([]Host{}, hostsIn(locX, 0, 0, 10, 5)...), hostsIn(locX, 0, 1, 4, 4)...), PanicThreshold: 50},
		"rr locality weighted with degraded": {Hosts: mixed, PanicThreshold: 50, LocalityWeighted: true},
		"lr p2c locality weighted": {Hosts: append(append([]Host{}, p0...), p1...), PanicThreshold: 50, LocalityWeighted: true,
			LB: HostLB{Policy: PolicyLeastRequest, ActiveRequests: []uint64{0, 3, 1, 1, 2, 0, 5, 1, 0, 0, 4}}},
		"lr weighted": {Hosts: mixed, PanicThreshold: 50,
			LB: HostLB{Policy: PolicyLeastRequest, ActiveRequests: []uint64{0, 3, 1, 1, 2, 0, 5, 1, 0, 0, 4}}},
		"random hash reuse": {Hosts: append(append([]Host{}, hostsIn(locX, 0, 0, 8, 4)...), hostsIn(locY, 0, 1, 4, 4)...), PanicThreshold: 50,
			LB: HostLB{Policy: PolicyRandom}},
		"panic priority": {Hosts: append(append([]Host{}, hostsIn(locX, 1, 0, 10, 1)...), hostsIn(locY, 1, 1, 10, 3)...), PanicThreshold: 50, LocalityWeighted: true},
		"zone residual rr": {Hosts: zoneUp, PanicThreshold: 50, HasLocalCluster: true, LocalCluster: zoneHosts("A", 3, "B", 2, "C", 1),
			NodeLocality: zone("A"), HasNodeLocality: true, ZoneAware: ZoneAwareConfig{RoutingEnabled: 80, RoutingEnabledSet: true}},
		"zone lr with local panic": {Hosts: zoneUp, PanicThreshold: 50, HasLocalCluster: true,
			LocalCluster: append(zoneHosts("A", 1, "B", 1), hostsIn(zone("A"), 0, 0, 3, 0)...), NodeLocality: zone("A"), HasNodeLocality: true,
			LB: HostLB{Policy: PolicyLeastRequest, ActiveRequests: []uint64{1, 0, 2, 0, 0, 1, 3, 0, 1}}},
		"fail traffic on panic": {Hosts: append(append([]Host{}, hostsIn(locX, 0, 0, 10, 2)...), hostsIn(locY, 0, 1, 10, 5)...), PanicThreshold: 50,
			ZoneAware: ZoneAwareConfig{FailTrafficOnPanic: true}},
	}
}

func TestClusterSharesSumToOne(t *testing.T) {
	for name, c := range testClusters() {
		s, err := ClusterShares(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := sum(s.Hosts) + s.NoHost; math.Abs(got-1) > 1e-9 {
			t.Errorf("%s: shares + no-host = %v", name, got)
		}
		for _, ps := range s.Priorities {
			var ls float64
			for _, l := range ps.Localities {
				ls += l.Share
			}
			if ls > 1+1e-9 {
				t.Errorf("%s P%d: locality shares sum to %v", name, ps.Priority, ls)
			}
		}
	}
}

// Priority composition by hand: P0 5 of 10 healthy → health 70, P1 100 →
// loads 70/30; each P0 healthy host 0.7/5, each P1 host 0.3/4.
func TestClusterSharesPriorities(t *testing.T) {
	s, err := ClusterShares(testClusters()["rr two priorities"])
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range s.Hosts {
		want := 0.0
		switch {
		case i < 5:
			want = 0.7 / 5
		case i >= 10:
			want = 0.3 / 4
		}
		if !near(x, want, 1e-15) {
			t.Errorf("host %d: %v, want %v", i, x, want)
		}
	}
}

// Panic: P0 1 of 10 healthy and P1 3 of 10: both levels panic (total panic,
// 50/50 by host count) and each level uses all its hosts, ignoring
// locality weights: every host 0.05.
func TestClusterSharesPanic(t *testing.T) {
	s, err := ClusterShares(testClusters()["panic priority"])
	if err != nil {
		t.Fatal(err)
	}
	if !s.Load.TotalPanic {
		t.Fatalf("expected total panic: %+v", s.Load)
	}
	for i, x := range s.Hosts {
		if !near(x, 0.05, 1e-15) {
			t.Errorf("host %d: %v", i, x)
		}
	}
	// fail_traffic_on_panic: health 28 and 70, NTA 98 < 100, so P0 (20 %)
	// panics and P1 (50 %) does not; P0's load 28 plus the rounding
	// remainder 1 = 29 % selects no host.
	s, err = ClusterShares(testClusters()["fail traffic on panic"])
	if err != nil {
		t.Fatal(err)
	}
	if !s.Load.Levels[0].Panic || s.Load.Levels[1].Panic || s.Load.Levels[0].HealthyLoad != 29 || !near(s.NoHost, 0.29, 1e-15) {
		t.Errorf("fail traffic on panic: %+v no host %v", s.Load, s.NoHost)
	}
}

// Zone routing composed with the routing_enabled coin: 80 % of P0 healthy
// traffic follows the zone shares, 20 % is plain RR (weighted here).
func TestClusterSharesZone(t *testing.T) {
	c := testClusters()["zone residual rr"]
	s, err := ClusterShares(c)
	if err != nil {
		t.Fatal(err)
	}
	z := s.Zone
	if z.State != LocalityResidual || z.RoutingEnabled != 80 {
		t.Fatalf("%+v", z)
	}
	// Weighted RR over A0(w5) A1 B0..3 C0..2: total weight 13.
	for i, h := range c.Hosts {
		plain := float64(HostWeight(h)) / 13
		loc := map[string]int{"A": 0, "B": 1, "C": 2}[h.Locality.Zone]
		groupW := map[string]float64{"A": 6, "B": 4, "C": 3}[h.Locality.Zone]
		want := 0.2*plain + 0.8*z.Shares[loc]*float64(HostWeight(h))/groupW
		if !near(s.Hosts[i], want, 1e-12) {
			t.Errorf("host %s: %v, want %v", h.Address, s.Hosts[i], want)
		}
	}
	// A local cluster in panic skips zone routing entirely.
	s, err = ClusterShares(testClusters()["zone lr with local panic"])
	if err != nil || !s.LocalClusterPanic {
		t.Fatalf("local panic not seen: %v %+v", err, s)
	}
}

// Seed 000 aggregate row {20,20,10},{25,25} → 70/30, through host shares:
// primary gets 70 % of the traffic and secondary 30 %.
func TestAggregateShares(t *testing.T) {
	level := func(name string, healthy ...int) AggregateChildInput {
		var hosts []Host
		for p, h := range healthy {
			hosts = append(hosts, hostsIn(locX, 0, p, 100, h)...)
		}
		return AggregateChildInput{Name: name, Cluster: ClusterInput{Hosts: hosts, PanicThreshold: 50}}
	}
	a, err := ComputeAggregateShares([]AggregateChildInput{level("primary", 20, 20, 10), level("secondary", 25, 25)}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if p, s := sum(a.Children[0].Hosts), sum(a.Children[1].Hosts); !near(p, 0.7, 1e-12) || !near(s, 0.3, 1e-12) || a.NoHost != 0 {
		t.Errorf("primary %v secondary %v no host %v", p, s, a.NoHost)
	}
	// Each child level panics on its own (20 % < 50 %), so the chosen child
	// level uses all its hosts: every primary P0 host gets 0.28/100.
	if !a.Children[0].LevelPanic[0] || !near(a.Children[0].Hosts[50], 0.0028, 1e-15) {
		t.Errorf("child panic not honoured: %v %v", a.Children[0].LevelPanic, a.Children[0].Hosts[50])
	}
	// Row 7 (erratum: total panic gives 60/40, not the seed's 50/50).
	a, err = ComputeAggregateShares([]AggregateChildInput{level("primary", 20, 0, 0), level("secondary", 20, 0)}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if p := sum(a.Children[0].Hosts); !near(p, 0.6, 1e-12) || !near(p+sum(a.Children[1].Hosts)+a.NoHost, 1, 1e-12) {
		t.Errorf("row 7: primary %v", p)
	}
	// Missing and aggregate children are skipped; a duplicate child counts twice.
	a, err = ComputeAggregateShares([]AggregateChildInput{level("a", 100), {Name: "gone", Kind: ChildMissing}, level("a", 100)}, 50)
	if err != nil || len(a.Children) != 1 || !near(sum(a.Children[0].Hosts), 1, 1e-12) {
		t.Errorf("duplicates: %v %+v", err, a)
	}
	if a, err := ComputeAggregateShares(nil, 50); err != nil || a.NoHost != 1 {
		t.Errorf("no children: %v %+v", err, a)
	}
}

// Degenerate inputs return values or errors, never panics.
func TestClusterSharesDegenerate(t *testing.T) {
	if s, err := ClusterShares(ClusterInput{}); err != nil || s.NoHost != 1 {
		t.Errorf("no hosts: %v %+v", err, s)
	}
	if s, err := ClusterShares(ClusterInput{Hosts: hostsIn(locX, 0, 0, 3, 0)}); err != nil || s.NoHost != 1 {
		t.Errorf("threshold 0, nobody healthy: %v %+v", err, s)
	}
	if _, err := ClusterShares(ClusterInput{Hosts: []Host{{Priority: -1}}}); err == nil {
		t.Error("negative priority accepted")
	}
	if _, err := ClusterShares(ClusterInput{Hosts: hostsIn(locX, 0, 0, 2, 2), LB: HostLB{Policy: PolicyPrecomputed}}); err == nil {
		t.Error("precomputed without function accepted")
	}
	s, err := ClusterShares(ClusterInput{Hosts: hostsIn(locX, 0, 0, 2, 2), PanicThreshold: 50, LB: HostLB{Policy: PolicyPrecomputed,
		Precomputed: func(_, src []Host) ([]float64, error) { return []float64{0.25, 0.75}, nil }}})
	if err != nil || s.Hosts[1] != 0.75 {
		t.Errorf("precomputed: %v %v", err, s.Hosts)
	}
	if _, err := ClusterShares(ClusterInput{Hosts: hostsIn(locX, 0, 0, 2, 2), LB: HostLB{ActiveRequests: []uint64{1}}}); err == nil {
		t.Error("short ActiveRequests accepted")
	}
}

// simulator picks like Envoy: one random for the priority hash, the
// locality EDF, the routing_enabled coin, the zone draws, then the host
// policy (RR rotation or EDF, P2C draws, Random reusing the hash).
type simulator struct {
	m      *preparedCluster
	rng    *rand.Rand
	locEDF map[[2]int]*EDF
	locIdx map[[2]int][]int
	rr     map[string]uint64
	hEDF   map[string]*EDF
}

func newSimulator(t *testing.T, c ClusterInput) *simulator {
	m, err := prepareCluster(c)
	if err != nil {
		t.Fatal(err)
	}
	s := &simulator{m: m, rng: rand.New(rand.NewPCG(7, 11)), locEDF: map[[2]int]*EDF{}, locIdx: map[[2]int][]int{},
		rr: map[string]uint64{}, hEDF: map[string]*EDF{}}
	for p := range m.levels {
		for d, ew := range [][]float64{m.ew[p], m.dew[p]} {
			if ok := []bool{m.sched[p], m.dsched[p]}[d]; ok {
				e, idx, err := NewLocalityEDF(ew, c.LocalityEDFSeed)
				if err != nil {
					t.Fatal(err)
				}
				s.locEDF[[2]int{p, d}], s.locIdx[[2]int{p, d}] = e, idx
			}
		}
	}
	return s
}

// pick returns a host index or -1.
func (s *simulator) pick() int {
	m := s.m
	r := s.rng.Uint64()
	p, deg, ok := m.load.Choose(r)
	if !ok || len(m.levels) == 0 {
		p, deg = 0, false
	}
	if len(m.levels) == 0 {
		return -1
	}
	kind, d := kindHealthy, 0
	if deg {
		kind, d = kindDegraded, 1
	}
	fail := m.in.ZoneAware.FailTrafficOnPanic
	var src []int
	key := ""
	switch {
	case m.load.Levels[p].Panic:
		if fail {
			return -1
		}
		src, key = m.hostsOf(p, kindAll), fmt.Sprint(p, "all")
	default:
		if m.in.LocalityWeighted {
			if e := s.locEDF[[2]int{p, d}]; e != nil {
				i := s.locIdx[[2]int{p, d}][e.Pick()]
				src, key = groupList(m.locs[p].Groups[i], kind), fmt.Sprint(p, kind, i)
				break
			}
		}
		src, key = m.hostsOf(p, kind), fmt.Sprint(p, kind)
		if p != 0 || m.zone.State == NoLocalityRouting || int(s.rng.Uint64()%100) >= m.zone.RoutingEnabled {
			break
		}
		if m.localPanic {
			if fail {
				return -1
			}
			break
		}
		i := 0
		z := m.zone
		if z.State == LocalityResidual && s.rng.Uint64()%10000 >= z.LocalPercentToRoute {
			n := uint64(len(z.ResidualCapacity))
			if tot := z.ResidualCapacity[n-1]; tot == 0 {
				i = int(s.rng.Uint64() % n)
			} else {
				th := s.rng.Uint64() % tot
				for th >= z.ResidualCapacity[i] {
					i++
				}
			}
		}
		src, key = groupList(m.locs[0].Groups[i], kind), fmt.Sprint(p, kind, "z", i)
	}
	if len(src) == 0 {
		return -1
	}
	return s.pickHost(src, key, r)
}

func (s *simulator) pickHost(src []int, key string, r uint64) int {
	hosts, lb := s.m.in.Hosts, s.m.in.LB
	weights := make([]uint32, len(src))
	for i, h := range src {
		weights[i] = hosts[h].Weight
	}
	active := func(i int) uint64 {
		if lb.ActiveRequests == nil {
			return 0
		}
		return lb.ActiveRequests[src[i]]
	}
	edf := func(w func(i int) float64) int {
		e := s.hEDF[key]
		if e == nil {
			ws := make([]float64, len(src))
			for i := range src {
				ws[i] = w(i)
			}
			e, _ = NewEDF(ws, 0)
			s.hEDF[key] = e
		}
		return src[e.Pick()]
	}
	switch lb.Policy {
	case PolicyRandom:
		return src[r%uint64(len(src))]
	case PolicyLeastRequest:
		if lb.LeastRequest.Weighted(weights) {
			return edf(func(i int) float64 { return LeastRequestWeight(weights[i], active(i), lb.LeastRequest.effectiveBias()) })
		}
		cand := -1
		for range 2 {
			h := int(s.rng.Uint64() % uint64(len(src)))
			if cand < 0 || active(h) < active(cand) {
				cand = h
			}
		}
		return src[cand]
	}
	if allEqual(weights) || len(src) == 1 {
		i := s.rr[key]
		s.rr[key]++
		return src[i%uint64(len(src))]
	}
	return edf(func(i int) float64 { return float64(HostWeight(hosts[src[i]])) })
}

// A seeded Monte-Carlo run of 1,000,000 picks per configuration through the
// simulator agrees with ClusterShares within 0.5 percentage points for every
// host (the no-host fraction included).
func TestMonteCarloAgreesWithShares(t *testing.T) {
	const picks = 1000000
	cases := testClusters()
	names := []string{"rr locality weighted with degraded", "lr p2c locality weighted", "random hash reuse", "zone residual rr", "fail traffic on panic", "zone lr with local panic"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		c := cases[name]
		want, err := ClusterShares(c)
		if err != nil {
			t.Fatal(err)
		}
		sim := newSimulator(t, c)
		count := make([]int, len(c.Hosts))
		none := 0
		for range picks {
			if h := sim.pick(); h >= 0 {
				count[h]++
			} else {
				none++
			}
		}
		n := float64(picks)
		for i, k := range count {
			if got := float64(k) / n; math.Abs(got-want.Hosts[i]) > 0.005 {
				t.Errorf("%s host %d: simulated %.4f, analytic %.4f", name, i, got, want.Hosts[i])
			}
		}
		if got := float64(none) / n; math.Abs(got-want.NoHost) > 0.005 {
			t.Errorf("%s no host: simulated %.4f, analytic %.4f", name, got, want.NoHost)
		}
	}
}

// Issue 14: a cluster with no hosts is P0 with healthy load 100, in panic
// and total panic; every request finds no host.
func TestClusterSharesNoHosts(t *testing.T) {
	s, err := ClusterShares(ClusterInput{PanicThreshold: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Priorities) != 1 || !s.Priorities[0].Panic || !s.Load.TotalPanic || s.Load.Levels[0].HealthyLoad != 100 || s.NoHost != 1 {
		t.Errorf("no hosts: %+v", s)
	}
}
