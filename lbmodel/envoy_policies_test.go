package lbmodel

import (
	"testing"
	"time"
)

// Envoy's own unit tests, transcribed as long-run shares: each pick
// sequence those tests assert is one cycle of the shares below.

// least_request_lb_test.cc.
func TestEnvoyLeastRequestTests(t *testing.T) {
	one := func(n int) []uint32 {
		w := make([]uint32, n)
		for i := range w {
			w[i] = 1
		}
		return w
	}
	cases := []struct {
		name    string
		weights []uint32
		active  []uint64
		c       LeastRequestConfig
		want    []float64
	}{
		// Normal: active 1 and 2, P2C: the less loaded wins unless both
		// draws hit the other host: 3/4, 1/4; and reversed.
		{"Normal", one(2), []uint64{1, 2}, LeastRequestConfig{}, []float64{0.75, 0.25}},
		{"Normal reversed", one(2), []uint64{2, 1}, LeastRequestConfig{}, []float64{0.25, 0.75}},
		// PNC: active 4,3,2,1; default and 2 choices are P2C
		// ((n−L)^k − (n−L−1)^k)/n^k: 1/16, 3/16, 5/16, 7/16 ...
		{"PNC default", one(4), []uint64{4, 3, 2, 1}, LeastRequestConfig{}, []float64{1.0 / 16, 3.0 / 16, 5.0 / 16, 7.0 / 16}},
		{"PNC 2", one(4), []uint64{4, 3, 2, 1}, LeastRequestConfig{ChoiceCount: 2}, []float64{1.0 / 16, 3.0 / 16, 5.0 / 16, 7.0 / 16}},
		// ... and 5 choices: 1/1024, 31/1024, 211/1024, 781/1024.
		{"PNC 5", one(4), []uint64{4, 3, 2, 1}, LeastRequestConfig{ChoiceCount: 5}, []float64{1.0 / 1024, 31.0 / 1024, 211.0 / 1024, 781.0 / 1024}},
		{"FullScanOneHostWithLeastRequests", one(5), []uint64{4, 3, 2, 1, 5}, LeastRequestConfig{FullScan: true}, []float64{0, 0, 0, 1, 0}},
		{"FullScanMultipleHostsWithLeastRequests", one(5), []uint64{3, 3, 1, 1, 1}, LeastRequestConfig{FullScan: true}, []float64{0, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// WeightImbalance: weights 1 and 2 → 1:2; host 1 with one active
		// request → 1:1; host 0 with one, host 1 none → 1:4.
		{"WeightImbalance", []uint32{1, 2}, []uint64{0, 0}, LeastRequestConfig{}, []float64{1.0 / 3, 2.0 / 3}},
		{"WeightImbalance 1:1", []uint32{1, 2}, []uint64{0, 1}, LeastRequestConfig{}, []float64{0.5, 0.5}},
		{"WeightImbalance 1:4", []uint32{1, 2}, []uint64{1, 0}, LeastRequestConfig{}, []float64{0.2, 0.8}},
		// WeightImbalanceWithInvalidActiveRequestBias: -1 counts as 1.
		{"WeightImbalanceWithInvalidActiveRequestBias", []uint32{1, 2}, []uint64{1, 0}, LeastRequestConfig{ActiveRequestBias: -1, ActiveRequestBiasSet: true}, []float64{0.2, 0.8}},
		// WeightImbalanceWithCustomActiveRequestBias: bias 0, 2:1 whatever
		// the active requests.
		{"WeightImbalanceWithCustomActiveRequestBias", []uint32{1, 2}, []uint64{0, 1}, LeastRequestConfig{ActiveRequestBias: 0, ActiveRequestBiasSet: true}, []float64{1.0 / 3, 2.0 / 3}},
		// EqualWeightsWithActiveRequestBias: an explicit bias forces the
		// EDF: 1/(1+1) and 1/(0+1) → 1:2 (200 of 300 picks).
		{"EqualWeightsWithActiveRequestBias", one(2), []uint64{1, 0}, LeastRequestConfig{ActiveRequestBias: 1, ActiveRequestBiasSet: true}, []float64{1.0 / 3, 2.0 / 3}},
	}
	for _, c := range cases {
		s, err := LeastRequestShares(c.weights, c.active, c.c)
		if err != nil {
			t.Fatal(c.name, err)
		}
		sharesEqual(t, c.name, s, c.want, 1e-15)
	}
}

// least_request_lb_test.cc SlowStartNoWait: window 60 s, bias 1; host 1
// past the window with one active request (weight 1/2), host 2 added 10 s
// ago with none (factor max(10/60, 0.1)): 3:1; at 40 s (factor 2/3): 3:4.
func TestEnvoyLeastRequestSlowStartNoWait(t *testing.T) {
	hosts := []Host{{Address: "h1", Weight: 1}, {Address: "h2", Weight: 1}}
	lb := HostLB{Policy: PolicyLeastRequest, LeastRequest: LeastRequestConfig{ActiveRequestBias: 1, ActiveRequestBiasSet: true},
		SlowStart: SlowStartConfig{Window: time.Minute}, ActiveRequests: []uint64{1, 0},
		HostAges: []time.Duration{71 * time.Second, 10 * time.Second}}
	s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "10s", s.Hosts, []float64{0.75, 0.25}, 1e-15)
	lb.HostAges = []time.Duration{101 * time.Second, 40 * time.Second}
	s, _ = ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	sharesEqual(t, "40s", s.Hosts, []float64{3.0 / 7, 4.0 / 7}, 1e-15)
}

// load_balancer_impl_test.cc / round_robin_lb_test.cc
// RoundRobinLoadBalancerTest.Weighted: weights 1 and 2 pick 1,0,1,1,0,1
// (1:2); swapped to 2 and 1, 2:1. Equal weights rotate (Normal).
func TestEnvoyRoundRobinWeighted(t *testing.T) {
	sharesEqual(t, "1,2", RoundRobinShares([]uint32{1, 2}), []float64{1.0 / 3, 2.0 / 3}, 1e-15)
	sharesEqual(t, "2,1", RoundRobinShares([]uint32{2, 1}), []float64{2.0 / 3, 1.0 / 3}, 1e-15)
	sharesEqual(t, "equal", RoundRobinShares([]uint32{7, 7, 7}), []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-15)
	// Through the cluster: the EDF on the healthy hosts of P0.
	hosts := []Host{{Address: "a", Weight: 1}, {Address: "b", Weight: 2}}
	s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: HostLB{Policy: PolicyRoundRobin}})
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "cluster", s.Hosts, []float64{1.0 / 3, 2.0 / 3}, 1e-15)
}

// orca_weight_manager_test.cc OrcaWeightManagerTest.UpdateWeightsOnHosts_AllValid:
// reports 40, 41, 42 first received at 5 s and last at 10 s, now 30 s
// (past the 10 s blackout, inside the 180 s expiration): each host keeps
// its own weight; then CSWRR's round robin gives 40:41:42.
func TestEnvoyOrcaUpdateWeightsAllValid(t *testing.T) {
	var reports []*ReportedWeight
	for i := range 3 {
		reports = append(reports, &ReportedWeight{Weight: uint32(40 + i), FirstReportAgo: 25 * time.Second, LastReportAgo: 20 * time.Second})
	}
	w := ClientSideWRRWeights(reports, ClientSideWRRConfig{})
	if w[0] != 40 || w[1] != 41 || w[2] != 42 {
		t.Fatalf("weights %v", w)
	}
	sharesEqual(t, "shares", ClientSideWRRShares(w), []float64{40.0 / 123, 41.0 / 123, 42.0 / 123}, 1e-15)
}
