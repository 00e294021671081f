package lbmodel

import (
	"math"
	"testing"
)

// A RING_HASH/MAGLEV child of an aggregate picks its own priority
// (ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost reads its own
// per-priority load, not the aggregate's forced one). Hand-derived:
// aggregate [a, ring]; a's P0 is 1 of 2 healthy (health 50, load 70);
// ring's P0 is 1 of 5 healthy (health 20 → 28), its P1 100. The aggregate
// gives a 70, ring's P0 28 and ring's P1 the last 2. Forced, ring's P0
// hosts would get 0.28 and P1's one host 0.02; unforced the ring's 0.30
// splits by its own load 28/72: P0 0.084, P1 0.216.
func TestAggregateHashingChildUnforced(t *testing.T) {
	h := func(addr string, prio int, st HealthStatus) Host {
		return Host{Address: addr, Priority: prio, Weight: 1, Status: st}
	}
	equal := func(all, source []Host) ([]float64, error) {
		out := make([]float64, len(source))
		for i := range out {
			out[i] = 1 / float64(len(source))
		}
		return out, nil
	}
	ring := ClusterInput{PanicThreshold: 50, LB: HostLB{Policy: PolicyPrecomputed, Precomputed: equal}, Hosts: []Host{
		h("r0", 0, StatusHealthy), h("r1", 0, StatusUnhealthy), h("r2", 0, StatusUnhealthy), h("r3", 0, StatusUnhealthy), h("r4", 0, StatusUnhealthy),
		h("r5", 1, StatusHealthy),
	}}
	a := ClusterInput{PanicThreshold: 50, Hosts: []Host{h("a0", 0, StatusHealthy), h("a1", 0, StatusUnhealthy)}}
	as, err := ComputeAggregateShares([]AggregateChildInput{{Name: "a", Cluster: a}, {Name: "ring", Cluster: ring}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, c := range as.Children {
		in := a
		if c.Name == "ring" {
			in = ring
		}
		for i, x := range c.Hosts {
			if in.Hosts[i].Priority == 1 {
				got[c.Name+"/P1"] += x
			} else {
				got[c.Name+"/P0"] += x
			}
		}
	}
	want := map[string]float64{"a/P0": 0.70, "ring/P0": 0.30 * 0.28, "ring/P1": 0.30 * 0.72}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-12 {
			t.Errorf("%s: %.6f, want %.6f", k, got[k], w)
		}
	}
	if as.NoHost != 0 {
		t.Errorf("no-host share %v", as.NoHost)
	}
}
