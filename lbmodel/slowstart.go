package lbmodel

import (
	"math"
	"time"
)

// SlowStartConfig is slow_start_config of RoundRobin or LeastRequest
// (EdfLoadBalancerBase's constructor, load_balancer_impl.cc).
type SlowStartConfig struct {
	// Window is slow_start_window; 0 disables slow start. Envoy keeps it in
	// whole milliseconds.
	Window time.Duration
	// Aggression is aggression (default 1.0); values <= 0 or NaN count as
	// 1.0, as applySlowStartFactor does.
	Aggression    float64
	AggressionSet bool
	// MinWeightPercent is min_weight_percent in percent (default 10).
	MinWeightPercent    float64
	MinWeightPercentSet bool
}

// Enabled is isSlowStartEnabled: a window above 0 ms.
func (c SlowStartConfig) Enabled() bool { return c.Window.Milliseconds() > 0 }

func (c SlowStartConfig) aggression() float64 {
	a := 1.0
	if c.AggressionSet {
		a = c.Aggression
	}
	if a <= 0 || math.IsNaN(a) {
		return 1.0
	}
	return a
}

func (c SlowStartConfig) minWeight() float64 {
	if c.MinWeightPercentSet {
		return c.MinWeightPercent / 100.0
	}
	return 10.0 / 100.0
}

// Factor is the multiplier EdfLoadBalancerBase::applySlowStartFactor puts
// on a healthy host's weight when its last health-check pass (or its
// addition, without active health checking) was age ago:
// max(time_factor^(1/aggression), min_weight_percent/100) with
// time_factor = max(1 ms, age)/window in whole milliseconds, while
// age < window; 1 afterwards or when slow start is off.
func (c SlowStartConfig) Factor(age time.Duration) float64 {
	win := c.Window.Milliseconds()
	ms := age.Milliseconds()
	if win <= 0 || ms >= win {
		return 1
	}
	tf := float64(max(1, ms)) / float64(win)
	a := c.aggression()
	if a != 1.0 && tf != 1.0 {
		tf = math.Pow(tf, 1.0/a)
	}
	return max(tf, c.minWeight())
}

// InSlowStart is !EdfLoadBalancerBase::noHostsAreInSlowStart: some host
// that is healthy (coarse) passed its health check or was added at most one
// window ago (<=, unlike Factor's <). It is one flag for the whole load
// balancer: while it holds, every host source with two or more hosts uses
// the EDF on slow-start weights, even with equal weights. ages and healthy
// are parallel. It assumes the load balancer itself is older than the
// window (Envoy starts latest_host_added_time_ at its construction).
func (c SlowStartConfig) InSlowStart(ages []time.Duration, healthy []bool) bool {
	win := c.Window.Milliseconds()
	if win <= 0 {
		return false
	}
	for i, a := range ages {
		if healthy[i] && a.Milliseconds() <= win {
			return true
		}
	}
	return false
}

// RoundRobinSlowStartShares is round robin while InSlowStart holds: the EDF
// on weight·factor (RoundRobinLoadBalancer::hostWeight through
// applySlowStartFactor), factors parallel to weights (1 for hosts past the
// window or not healthy). Without slow start use RoundRobinShares.
func RoundRobinSlowStartShares(weights []uint32, factors []float64) []float64 {
	w := make([]float64, len(weights))
	for i, x := range weights {
		w[i] = float64(max(1, x)) * factors[i]
	}
	return normalize(w)
}

// normalize divides by the sum; all zero when the sum is not positive.
func normalize(w []float64) []float64 {
	out := make([]float64, len(w))
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	if !(sum > 0) {
		return out
	}
	for i, x := range w {
		out[i] = x / sum
	}
	return out
}
