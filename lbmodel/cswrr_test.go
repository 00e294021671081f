package lbmodel

import (
	"testing"
	"time"
)

// calculateWeightFromOrcaReport by hand.
func TestOrcaWeight(t *testing.T) {
	cases := []struct {
		r       OrcaReport
		penalty float64
		want    uint32
		err     bool
	}{
		{OrcaReport{RPSFractional: 1000, ApplicationUtilization: 0.5}, 0, 2000, false},
		// application_utilization 0: the named maximum, then cpu.
		{OrcaReport{RPSFractional: 1000, MaxNamedUtilization: 0.25, CPUUtilization: 0.5}, 0, 4000, false},
		{OrcaReport{RPSFractional: 1000, CPUUtilization: 0.5}, 0, 2000, false},
		// errors raise utilization: 0.5 + 2·100/1000 = 0.7 → 1428.57 → 1428.
		{OrcaReport{RPSFractional: 1000, EPS: 100, CPUUtilization: 0.5}, 2, 1428, false},
		{OrcaReport{RPSFractional: 0.5, CPUUtilization: 1}, 0, 0, false},
		{OrcaReport{RPSFractional: 1e12, CPUUtilization: 1e-3}, 0, 4294967295, false},
		{OrcaReport{CPUUtilization: 1}, 0, 0, true},
		{OrcaReport{RPSFractional: 10}, 0, 0, true},
	}
	for i, c := range cases {
		w, err := OrcaWeight(c.r, c.penalty)
		if (err != nil) != c.err || w != c.want {
			t.Errorf("case %d: %d, %v; want %d, error %v", i, w, err, c.want, c.err)
		}
	}
}

// updateWeightsOnHosts: no valid report → every host 1 (EDS weights do not
// count); a host without a valid weight gets the upper median of the valid
// ones; blackout and expiration bounds are inclusive.
func TestClientSideWRRWeights(t *testing.T) {
	var c ClientSideWRRConfig
	w := ClientSideWRRWeights([]*ReportedWeight{nil, nil, nil}, c)
	sharesEqual(t, "no reports", ClientSideWRRShares(w), []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 0)
	old := func(w uint32) *ReportedWeight {
		return &ReportedWeight{Weight: w, FirstReportAgo: time.Minute, LastReportAgo: time.Second}
	}
	young := &ReportedWeight{Weight: 50, FirstReportAgo: 9 * time.Second}
	stale := &ReportedWeight{Weight: 70, FirstReportAgo: time.Hour, LastReportAgo: 181 * time.Second}
	got := ClientSideWRRWeights([]*ReportedWeight{old(10), old(30), old(20), old(40), nil, young, stale}, c)
	// valid 10,30,20,40 → sorted index 2 = 30.
	want := []uint32{10, 30, 20, 40, 30, 30, 30}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("host %d: weight %d, want %d", i, got[i], want[i])
		}
	}
	edge := &ReportedWeight{Weight: 9, FirstReportAgo: 10 * time.Second, LastReportAgo: 180 * time.Second}
	if !edge.Valid(c) {
		t.Error("bounds are inclusive")
	}
	if (&ReportedWeight{Weight: 9}).Valid(c) == (&ReportedWeight{Weight: 9}).Valid(ClientSideWRRConfig{BlackoutSet: true}) {
		t.Error("explicit blackout 0 not honoured")
	}
	// A weight of 0 is stored, but the host weight becomes 1.
	if g := ClientSideWRRWeights([]*ReportedWeight{old(0)}, c); g[0] != 1 {
		t.Errorf("weight 0 gave %d", g[0])
	}
}

func TestWrrLocalityChild(t *testing.T) {
	known := func(s string) bool { return s != "acme.Unknown" }
	if i, err := WrrLocalityChild([]string{"acme.Unknown", ClientSideWRRType}, known); i != 1 || err != nil {
		t.Errorf("unknown first: %d %v", i, err)
	}
	rr := "envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin"
	if _, err := WrrLocalityChild([]string{rr, ClientSideWRRType}, known); err != ErrWrrLocalityChild {
		t.Errorf("round robin first: %v", err)
	}
	if _, err := WrrLocalityChild([]string{"acme.Unknown"}, known); err != ErrWrrLocalityNoChild {
		t.Errorf("none known: %v", err)
	}
}

// wrr_locality: locality weights 1 and 3 split the traffic 1:3 whatever the
// host counts; within a locality CSWRR weights (here 1 and 3 reported).
func TestWrrLocalityShares(t *testing.T) {
	la, lb := Locality{Zone: "a"}, Locality{Zone: "b"}
	hosts := []Host{
		{Address: "a1", Locality: la, LocalityWeight: 1, Weight: 7},
		{Address: "a2", Locality: la, LocalityWeight: 1, Weight: 1},
		{Address: "b1", Locality: lb, LocalityWeight: 3, Weight: 1},
	}
	in := WrrLocalityInput(ClusterInput{Hosts: hosts, PanicThreshold: 50}, []uint32{1, 3, 1})
	s, err := ClusterShares(in)
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "wrr_locality", s.Hosts, []float64{0.0625, 0.1875, 0.75}, 1e-15)
	in = WrrLocalityInput(ClusterInput{Hosts: hosts, PanicThreshold: 50}, nil)
	s, _ = ClusterShares(in)
	sharesEqual(t, "wrr_locality no reports", s.Hosts, []float64{0.125, 0.125, 0.75}, 1e-15)
}
