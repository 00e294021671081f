package lbmodel

import (
	"math"
	"testing"
)

// bruteNChoices enumerates all n^k draw sequences of unweightedHostPickNChoices.
func bruteNChoices(active []uint64, k int) []float64 {
	n := len(active)
	out := make([]float64, n)
	total := int(math.Pow(float64(n), float64(k)))
	for s := 0; s < total; s++ {
		x, cand := s, -1
		for range k {
			h := x % n
			x /= n
			if cand < 0 || active[h] < active[cand] {
				cand = h
			}
		}
		out[cand] += 1 / float64(total)
	}
	return out
}

// subset.md §3.3 examples, and exhaustive enumeration of the algorithm.
func TestNChoicesShares(t *testing.T) {
	cases := []struct {
		active []uint64
		k      uint32
		want   []float64
	}{
		{[]uint64{1, 2}, 2, []float64{0.75, 0.25}},
		{[]uint64{4, 3, 2, 1}, 2, []float64{1.0 / 16, 3.0 / 16, 5.0 / 16, 7.0 / 16}},
		{[]uint64{0, 0, 1, 3}, 2, []float64{3.0 / 8, 3.0 / 8, 3.0 / 16, 1.0 / 16}},
	}
	for _, c := range cases {
		got := NChoicesShares(c.active, c.k)
		for i := range got {
			if !near(got[i], c.want[i], 1e-15) {
				t.Errorf("%v k=%d: %v, want %v", c.active, c.k, got, c.want)
			}
		}
	}
	for _, active := range [][]uint64{{5, 1, 1, 0, 9}, {2, 2, 2}, {0, 3, 1, 3, 1, 7}} {
		for k := 2; k <= 4; k++ {
			got, want := NChoicesShares(active, uint32(k)), bruteNChoices(active, k)
			for i := range got {
				if !near(got[i], want[i], 1e-12) {
					t.Errorf("%v k=%d host %d: %v, enumeration %v", active, k, i, got[i], want[i])
				}
			}
		}
	}
}

// LeastRequestLoadBalancerTest-style expectations: the busiest host is not
// excluded (PNC: with replacement, both samples may hit it); FULL_SCAN
// splits ties evenly; weighted mode divides weight by (active+1)^bias.
func TestLeastRequestShares(t *testing.T) {
	s, err := LeastRequestShares([]uint32{1, 1, 1}, []uint64{0, 0, 5}, LeastRequestConfig{})
	if err != nil || !near(s[2], 1.0/9, 1e-15) {
		t.Errorf("busiest host share %v, want 1/9 (%v)", s, err)
	}
	s, _ = LeastRequestShares([]uint32{1, 1, 1, 1}, []uint64{3, 1, 1, 2}, LeastRequestConfig{FullScan: true})
	if s[0] != 0 || s[1] != 0.5 || s[2] != 0.5 || s[3] != 0 {
		t.Errorf("full scan %v", s)
	}
	s, _ = LeastRequestShares([]uint32{1, 2}, []uint64{1, 0}, LeastRequestConfig{})
	if !near(s[0], 0.2, 1e-15) || !near(s[1], 0.8, 1e-15) {
		t.Errorf("weighted bias 1: %v, want [0.2 0.8]", s)
	}
	s, _ = LeastRequestShares([]uint32{1, 2}, []uint64{3, 0}, LeastRequestConfig{ActiveRequestBias: 0, ActiveRequestBiasSet: true})
	if !near(s[0], 1.0/3, 1e-15) {
		t.Errorf("bias 0 is weighted RR: %v", s)
	}
	s, _ = LeastRequestShares([]uint32{1, 2}, []uint64{3, 0}, LeastRequestConfig{ActiveRequestBias: 2, ActiveRequestBiasSet: true})
	if !near(s[0], (1.0/16)/(1.0/16+2), 1e-15) {
		t.Errorf("bias 2: %v", s)
	}
	// An explicit bias forces the weighted path even with equal weights.
	s, _ = LeastRequestShares([]uint32{3, 3}, []uint64{1, 0}, LeastRequestConfig{ActiveRequestBias: 1, ActiveRequestBiasSet: true})
	if !near(s[0], 1.0/3, 1e-15) {
		t.Errorf("explicit bias, equal weights: %v", s)
	}
	// Invalid bias (negative) falls back to 1.0.
	s, _ = LeastRequestShares([]uint32{1, 2}, []uint64{1, 0}, LeastRequestConfig{ActiveRequestBias: -1, ActiveRequestBiasSet: true})
	if !near(s[0], 0.2, 1e-15) {
		t.Errorf("negative bias: %v", s)
	}
	if _, err := LeastRequestShares([]uint32{1}, []uint64{0}, LeastRequestConfig{ChoiceCount: 1}); err == nil {
		t.Error("choice_count 1 accepted")
	}
	if s, err := LeastRequestShares(nil, nil, LeastRequestConfig{}); err != nil || len(s) != 0 {
		t.Error("empty source")
	}
	if LeastRequestWeight(4, math.MaxUint64, 1) != 4/float64(math.MaxUint64) {
		t.Error("uint64 max active")
	}
}

// RoundRobinLoadBalancerTest: equal weights of any value are unweighted;
// different weights share by weight; weight 0 counts as 1.
func TestRoundRobinShares(t *testing.T) {
	s := RoundRobinShares([]uint32{42, 42, 42})
	if s[0] != 1.0/3 {
		t.Errorf("all 42: %v", s)
	}
	s = RoundRobinShares([]uint32{1, 2, 0})
	if !near(s[0], 0.25, 1e-15) || !near(s[1], 0.5, 1e-15) || !near(s[2], 0.25, 1e-15) {
		t.Errorf("weighted: %v", s)
	}
}

// RandomLoadBalancer reuses the priority hash as the host index: with 4
// hosts and a 70 % bucket, residues 0,1 get 18/70 and 2,3 get 17/70.
func TestRandomSharesGiven(t *testing.T) {
	s := RandomSharesGiven(4, Bucket{1, 70})
	want := []float64{18.0 / 70, 18.0 / 70, 17.0 / 70, 17.0 / 70}
	for i := range s {
		if !near(s[i], want[i], 1e-15) {
			t.Errorf("%v, want %v", s, want)
		}
	}
	s = RandomSharesGiven(3, Bucket{1, 70})
	for i := range s {
		if !near(s[i], 1.0/3, 1e-15) {
			t.Errorf("gcd 1 is uniform: %v", s)
		}
	}
	// RandomLoadBalancerTest.Normal: r=2 → h0, r=3 → h1 with two hosts
	// (r % 2); the full bucket is uniform.
	if s := RandomShares(2); s[0] != 0.5 {
		t.Errorf("%v", s)
	}
}
