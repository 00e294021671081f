package lbmodel

import "testing"

// AggregateLoadBalancerContext::determinePriorityLoad forces the child to
// one priority. P0 has 20 of 100 hosts healthy and P1 all 100, so the
// child's normalized total availability is 100 and no priority panics
// (recalculatePerPriorityPanic): forced P0 spreads over its 20 healthy
// hosts, forced P1 over its own 100. P2 has no host set, so the child's
// chooseHostOnce returns nullptr.
func TestForcedPriorityShares(t *testing.T) {
	c := ClusterInput{Hosts: append(hostsIn(locX, 0, 0, 100, 20), hostsIn(locX, 0, 1, 100, 100)...), PanicThreshold: 50}
	d, nh, err := ForcedPriorityShares(c, 0, false)
	if err != nil || nh != 0 || !near(d[19], 0.05, 1e-15) || d[20] != 0 || sum(d[100:]) != 0 {
		t.Errorf("P0: %v no host %v, host 19 %v host 20 %v P1 %v", err, nh, d[19], d[20], sum(d[100:]))
	}
	d, nh, err = ForcedPriorityShares(c, 1, false)
	if err != nil || nh != 0 || sum(d[:100]) != 0 || !near(d[150], 0.01, 1e-15) {
		t.Errorf("P1: %v no host %v, P0 %v host %v", err, nh, sum(d[:100]), d[150])
	}
	d, nh, err = ForcedPriorityShares(c, 2, false)
	if err != nil || nh != 1 || sum(d) != 0 {
		t.Errorf("P2: %v no host %v sum %v", err, nh, sum(d))
	}
	// With P1 at 20 of 100 too the availability is 28+28 < 100: P0 is
	// in panic and forced P0 uses all its 100 hosts.
	c.Hosts = append(hostsIn(locX, 0, 0, 100, 20), hostsIn(locX, 0, 1, 100, 20)...)
	d, nh, err = ForcedPriorityShares(c, 0, false)
	if err != nil || nh != 0 || !near(d[99], 0.01, 1e-15) || sum(d[100:]) != 0 {
		t.Errorf("P0 in panic: %v no host %v, host 99 %v P1 %v", err, nh, d[99], sum(d[100:]))
	}
}
