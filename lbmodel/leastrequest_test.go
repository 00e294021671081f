package lbmodel

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func sharesEqual(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d shares, want %d", name, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s host %d: %v, want %v", name, i, got[i], want[i])
		}
	}
}

// Hand-derived N_CHOICES probabilities (unweightedHostPickNChoices): with
// active 0,1,2,3 and two draws, host 0 wins unless both draws miss it:
// (4²−3²)/4² = 7/16, then 5/16, 3/16, 1/16.
func TestNChoicesExact(t *testing.T) {
	sharesEqual(t, "p2c", NChoicesShares([]uint64{0, 1, 2, 3}, 2), []float64{7.0 / 16, 5.0 / 16, 3.0 / 16, 1.0 / 16}, 0)
	// Ties go to the earlier draw, so tied hosts split evenly:
	// host 2 (0 active) 1−(2/3)² = 5/9; hosts 0, 1: (2/3)²/2 = 2/9.
	sharesEqual(t, "ties", NChoicesShares([]uint64{1, 1, 0}, 2), []float64{2.0 / 9, 2.0 / 9, 5.0 / 9}, 0)
	// choice_count above the host count: draws are with replacement.
	sharesEqual(t, "k>n", NChoicesShares([]uint64{0, 1}, 5), []float64{31.0 / 32, 1.0 / 32}, 0)
	// All equal: 1/n whatever k.
	sharesEqual(t, "equal", NChoicesShares([]uint64{4, 4, 4}, 3), []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 0)
	// Large k falls back to float without losing the shape.
	s := NChoicesShares([]uint64{0, 1}, 10000)
	if s[0] != 1 || s[1] != 0 {
		t.Errorf("k=10000: %v", s)
	}
}

// Monte Carlo of unweightedHostPickNChoices itself: k draws r%n, replace
// only on strictly fewer active requests.
func TestNChoicesMonteCarlo(t *testing.T) {
	active := []uint64{2, 0, 2, 1, 0}
	const k, picks = 3, 200000
	rng := rand.New(rand.NewPCG(1, 2))
	count := make([]int, len(active))
	for range picks {
		c := -1
		for range k {
			h := int(rng.Uint64() % uint64(len(active)))
			if c < 0 || active[h] < active[c] {
				c = h
			}
		}
		count[c]++
	}
	got := make([]float64, len(count))
	for i, c := range count {
		got[i] = float64(c) / picks
	}
	sharesEqual(t, "monte carlo", got, NChoicesShares(active, k), 0.005)
}

// unweightedHostPickFullScan: the minimum, ties by reservoir sampling.
func TestFullScanTies(t *testing.T) {
	sharesEqual(t, "full scan", FullScanShares([]uint64{2, 0, 0, 5}), []float64{0, 0.5, 0.5, 0}, 0)
	s, err := LeastRequestShares([]uint32{1, 1, 1, 1}, []uint64{2, 0, 0, 5}, LeastRequestConfig{FullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "full scan config", s, []float64{0, 0.5, 0.5, 0}, 0)
}

// LeastRequestLoadBalancer::hostWeight on the EDF path: weight/(active+1)^bias.
// Mirrors least_request_lb_test.cc WeightImbalance (weights 1 and 2, no
// active requests: 1/3, 2/3) and the custom / invalid active_request_bias
// cases; an explicit bias forces the EDF even with equal weights
// (least_request_lb_active_request_bias_forces_weighted).
func TestLeastRequestWeighted(t *testing.T) {
	cases := []struct {
		name    string
		weights []uint32
		active  []uint64
		c       LeastRequestConfig
		want    []float64
	}{
		{"weight imbalance", []uint32{1, 2}, []uint64{0, 0}, LeastRequestConfig{}, []float64{1.0 / 3, 2.0 / 3}},
		{"weights and active", []uint32{1, 2}, []uint64{0, 3}, LeastRequestConfig{}, []float64{2.0 / 3, 1.0 / 3}},
		{"bias 0 is round robin", []uint32{1, 3}, []uint64{0, 9}, LeastRequestConfig{ActiveRequestBiasSet: true}, []float64{0.25, 0.75}},
		{"bias 2", []uint32{1, 1}, []uint64{0, 1}, LeastRequestConfig{ActiveRequestBias: 2, ActiveRequestBiasSet: true}, []float64{0.8, 0.2}},
		{"explicit bias 1 equal weights", []uint32{1, 1}, []uint64{0, 1}, LeastRequestConfig{ActiveRequestBias: 1, ActiveRequestBiasSet: true}, []float64{2.0 / 3, 1.0 / 3}},
		{"invalid bias is 1", []uint32{1, 1}, []uint64{0, 1}, LeastRequestConfig{ActiveRequestBias: -1, ActiveRequestBiasSet: true}, []float64{2.0 / 3, 1.0 / 3}},
		{"equal weights no bias: p2c", []uint32{5, 5}, []uint64{0, 1}, LeastRequestConfig{}, []float64{0.75, 0.25}},
	}
	for _, c := range cases {
		s, err := LeastRequestShares(c.weights, c.active, c.c)
		if err != nil {
			t.Fatal(c.name, err)
		}
		sharesEqual(t, c.name, s, c.want, 1e-15)
	}
	if _, err := LeastRequestShares([]uint32{1, 1}, []uint64{0, 0}, LeastRequestConfig{ChoiceCount: 1}); err == nil {
		t.Error("choice_count 1 accepted")
	}
}

// Slow start turns least request into the EDF for the whole load balancer:
// equal weights, no active requests, host 0 healthy for 30 s of a 60 s
// window: weights 0.5 and 1, not the P2C halves.
func TestLeastRequestSlowStart(t *testing.T) {
	hosts := []Host{{Address: "a", Weight: 1}, {Address: "b", Weight: 1}}
	lb := HostLB{Policy: PolicyLeastRequest, SlowStart: SlowStartConfig{Window: time.Minute},
		HostAges: []time.Duration{30 * time.Second, time.Hour}}
	s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "lr slow start", s.Hosts, []float64{1.0 / 3, 2.0 / 3}, 1e-15)
	lb.HostAges = []time.Duration{2 * time.Minute, time.Hour}
	s, _ = ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	sharesEqual(t, "lr past window", s.Hosts, []float64{0.5, 0.5}, 0)
}
