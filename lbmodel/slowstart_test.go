package lbmodel

import (
	"math"
	"testing"
	"time"
)

// applySlowStartFactor by hand: window 60 s. At 5 s the time factor 1/12
// is below min_weight_percent 10%, so 0.1 (as in
// RoundRobinLoadBalancerTest.SlowStartWithDefaultParams, where the new host
// starts at 10% of its weight); aggression 2 at 30 s gives sqrt(0.5); a
// fresh host counts as 1 ms; at or past the window the factor is 1.
func TestSlowStartFactor(t *testing.T) {
	c := SlowStartConfig{Window: time.Minute}
	cases := []struct {
		c    SlowStartConfig
		age  time.Duration
		want float64
	}{
		{c, 5 * time.Second, 0.1},
		{c, 30 * time.Second, 0.5},
		{c, 0, 0.1},
		{c, time.Minute, 1},
		{SlowStartConfig{Window: time.Minute, Aggression: 2, AggressionSet: true}, 30 * time.Second, math.Pow(0.5, 0.5)},
		{SlowStartConfig{Window: time.Minute, Aggression: -3, AggressionSet: true}, 30 * time.Second, 0.5},
		{SlowStartConfig{Window: time.Minute, MinWeightPercent: 1, MinWeightPercentSet: true}, 0, 0.01},
		{SlowStartConfig{Window: time.Minute, MinWeightPercent: 1, MinWeightPercentSet: true}, 3 * time.Second, 0.05},
		{SlowStartConfig{}, 0, 1},
	}
	for i, k := range cases {
		if got := k.c.Factor(k.age); math.Abs(got-k.want) > 1e-15 {
			t.Errorf("case %d: factor %v, want %v", i, got, k.want)
		}
	}
	// noHostsAreInSlowStart uses <=: a host exactly one window old keeps the
	// EDF on although its own factor is already 1.
	if !c.InSlowStart([]time.Duration{time.Minute}, []bool{true}) {
		t.Error("age == window: not in slow start")
	}
	if c.InSlowStart([]time.Duration{time.Second}, []bool{false}) {
		t.Error("unhealthy host put the LB in slow start")
	}
}

// Round robin with one host 30 s into a 60 s window: EDF on 1·0.5 and 1.
// Weights 1 and 3 with the new host at 10%: 0.1/(0.1+3).
func TestRoundRobinSlowStart(t *testing.T) {
	hosts := []Host{{Address: "a", Weight: 1}, {Address: "b", Weight: 1}}
	lb := HostLB{SlowStart: SlowStartConfig{Window: time.Minute}, HostAges: []time.Duration{30 * time.Second, time.Hour}}
	s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "rr", s.Hosts, []float64{1.0 / 3, 2.0 / 3}, 1e-15)
	hosts[1].Weight = 3
	lb.HostAges[0] = time.Second
	s, _ = ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	sharesEqual(t, "rr weighted", s.Hosts, []float64{0.1 / 3.1, 3 / 3.1}, 1e-15)
	if _, err := ClusterShares(ClusterInput{Hosts: hosts, LB: HostLB{SlowStart: lb.SlowStart, HostAges: []time.Duration{0}}}); err == nil {
		t.Error("short HostAges accepted")
	}
}
