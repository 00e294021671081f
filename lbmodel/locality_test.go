package lbmodel

import (
	"math"
	"testing"

	"github.com/lbctl/lbctl/lbmodel/internal/seedcases"
)

// hostsIn builds n hosts of one locality, the first healthy of them healthy
// and the rest UNHEALTHY.
func hostsIn(loc Locality, weight uint32, priority, n, healthy int) []Host {
	out := make([]Host, n)
	for i := range out {
		out[i] = Host{Locality: loc, LocalityWeight: weight, Priority: priority, Weight: 1, Status: StatusHealthy}
		if i >= healthy {
			out[i].Status = StatusUnhealthy
		}
	}
	return out
}

var (
	locX = Locality{Region: "r", Zone: "x"}
	locY = Locality{Region: "r", Zone: "y"}
)

// seed003Rows is the seed 003 and seed 001 locality table
// (seedcases.Seed003, which failure's sweep tests reproduce too).
var seed003Rows = seedcases.Seed003

func TestSeedLocalityTable(t *testing.T) {
	for _, r := range seed003Rows {
		hosts := append(hostsIn(locX, 1, 0, 100, r.Healthy), hostsIn(locY, 2, 0, 100, 100)...)
		s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LocalityWeighted: true})
		if err != nil {
			t.Fatal(err)
		}
		x := s.Priorities[0].Localities[0].Share
		y := s.Priorities[0].Localities[1].Share
		if !near(x, r.X, 1e-12) || !near(x+y, 1, 1e-12) {
			t.Errorf("X %d%% healthy: share X %.9f, want %.9f (Y %.9f)", r.Healthy, x, r.X, y)
		}
		px, py := int(math.Round(100*x)), int(math.Round(100*y))
		if r.Erratum {
			if px != 33 || py != 67 {
				t.Errorf("69%% row: code rounds to %d/%d, want 33/67 (erratum)", px, py)
			}
		} else if px != r.SeedX || py != r.SeedY {
			t.Errorf("X %d%% healthy: %d/%d, seed says %d/%d", r.Healthy, px, py, r.SeedX, r.SeedY)
		}
	}
}

// locality.md §3.2: bit-identical float arithmetic.
func TestEffectiveLocalityWeight(t *testing.T) {
	if got := EffectiveLocalityWeight(1, 70, 100, 0, 140); got != 0.9799999999999999 {
		t.Errorf("1.4·0.7 = %v, want 0.9799999999999999", got)
	}
	if got := EffectiveLocalityWeight(1, 5, 7, 0, 140); got != 1.0 {
		t.Errorf("5/7·1.4 = %v, want exactly 1", got)
	}
	if got := EffectiveLocalityWeight(3, 0, 4, 4, 140); got != 0 {
		t.Errorf("all excluded: %v", got)
	}
	if got := EffectiveLocalityWeight(0, 4, 4, 0, 140); got != 0 {
		t.Errorf("zero weight: %v", got)
	}
	// Excluded hosts leave the denominator: 2 healthy of 3 counted.
	if got := EffectiveLocalityWeight(2, 2, 4, 1, 100); got != 2*(1.0*2/3) {
		t.Errorf("excluded: %v", got)
	}
}

// HostSetImplLocalityTest.UnhealthyFailover: X weight 1 with h of 5 hosts
// healthy, Y weight 2 with 1 healthy host; the first 100 picks from seed 0
// send 33, 33, 29, 22, 12, 0 to X for h = 5..0.
func TestLocalityUnhealthyFailover(t *testing.T) {
	want := []int{33, 33, 29, 22, 12, 0}
	for i, h := range []int{5, 4, 3, 2, 1, 0} {
		hosts := append(hostsIn(locX, 1, 0, 5, h), hostsIn(locY, 2, 0, 1, 1)...)
		l := GroupLocalities(hosts, 0, Locality{}, false)
		ew, ok := LocalityWeights(l, 140, false)
		if !ok {
			t.Fatal("no scheduler")
		}
		e, idx, err := NewLocalityEDF(ew, 0)
		if err != nil {
			t.Fatal(err)
		}
		x := 0
		for range 100 {
			if idx[e.Pick()] == 0 {
				x++
			}
		}
		if x != want[i] {
			t.Errorf("h=%d: X got %d of 100, want %d", h, x, want[i])
		}
	}
}

// EdsTest.EndpointLocalityWeights: three localities with weights 42, unset,
// 37 give [42, 0, 37]; and the grouping order of updateClusterPrioritySet.
func TestGroupLocalities(t *testing.T) {
	a, b, c := Locality{"oceania", "hello", "world"}, Locality{"oceania", "hello", "world2"}, Locality{"oceania", "hello", "world3"}
	hosts := []Host{
		{Locality: c, LocalityWeight: 37},
		{Locality: a, LocalityWeight: 42},
		{Locality: b},
		{Locality: Locality{}}, // group without a locality field: weight 0
	}
	l := GroupLocalities(hosts, 0, Locality{}, false)
	var got []uint32
	for _, g := range l.Groups {
		got = append(got, g.Weight)
	}
	if len(got) != 4 || got[0] != 0 || got[1] != 42 || got[2] != 0 || got[3] != 37 || l.HasLocal {
		t.Errorf("weights %v (the empty locality sorts first), want [0 42 0 37]", got)
	}
	// An explicit empty locality {} with a weight keeps it
	// (initializePriorityFor checks has_locality(), not emptiness).
	l = GroupLocalities([]Host{{Locality: Locality{}, LocalityWeight: 5}, {Locality: a, LocalityWeight: 1}}, 0, Locality{}, false)
	if l.Groups[0].Weight != 5 {
		t.Errorf("explicit empty locality: weight %d, want 5", l.Groups[0].Weight)
	}
	// The node's locality goes first when this priority has a host there.
	l = GroupLocalities(hosts, 0, b, true)
	if !l.HasLocal || l.Groups[0].Locality != b || l.Groups[1].Locality != (Locality{}) {
		t.Errorf("local first: %+v", l.Groups)
	}
	l = GroupLocalities(hosts, 0, Locality{"x", "y", ""}, true)
	if l.HasLocal {
		t.Error("HasLocal without a host in the node's locality")
	}
}

// locality.md §7: with every effective weight 0 but healthy hosts present,
// no scheduler is built and traffic spreads over all healthy hosts of the
// priority, zero-weight localities included (RoundRobinLoadBalancerTest.Locality).
func TestLocalityAllZeroFallback(t *testing.T) {
	hosts := append(hostsIn(locX, 0, 0, 2, 2), hostsIn(locY, 0, 0, 2, 2)...)
	s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LocalityWeighted: true})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Priorities[0].LocalityFallback || s.Priorities[0].HealthyScheduler {
		t.Errorf("fallback not reported: %+v", s.Priorities[0])
	}
	for i, x := range s.Hosts {
		if !near(x, 0.25, 1e-12) {
			t.Errorf("host %d share %v, want 0.25", i, x)
		}
	}
	// Weighted locality without healthy hosts: X weight 1 has none healthy,
	// Y has weight 0: the fallback is Y's hosts.
	hosts = append(hostsIn(locX, 1, 0, 2, 0), hostsIn(locY, 0, 0, 6, 6)...)
	s, err = ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LocalityWeighted: true})
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.Priorities[0].Localities[1].Share, 1, 1e-12) || s.NoHost != 0 {
		t.Errorf("fallback to zero-weight locality: %+v no host %v", s.Priorities[0].Localities, s.NoHost)
	}
}

// Degraded hosts lower the healthy effective weight and get their own
// scheduler (locality.md §3.2, §3.3).
func TestLocalityDegraded(t *testing.T) {
	hosts := hostsIn(locX, 1, 0, 4, 4)
	hosts[3].Status = StatusDegraded
	hosts = append(hosts, hostsIn(locY, 1, 0, 4, 0)...)
	for i := 4; i < 6; i++ {
		hosts[i].Status = StatusDegraded
	}
	l := GroupLocalities(hosts, 0, Locality{}, false)
	ew, ok := LocalityWeights(l, 140, false)
	dew, dok := LocalityWeights(l, 140, true)
	if !ok || !dok {
		t.Fatal("schedulers missing")
	}
	if ew[0] != 1 || ew[1] != 0 {
		t.Errorf("healthy ew %v, want [1 0]", ew)
	}
	if dew[0] != 1.0*min(1.0, 1.4*0.25) || dew[1] != min(1.0, 1.4*0.5) {
		t.Errorf("degraded ew %v", dew)
	}
}
