package hash

import (
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// ThreadAwareLoadBalancerBase (thread_aware_lb_impl.cc): chooseHost keeps
// only the priority of choosePriority and the priority's table is built
// over healthyHosts() (all hosts in panic), so a priority's degraded load
// also lands on its healthy hosts. P0 with 1 healthy and 2 degraded hosts:
// health 140·1/3 = 46, degraded 93, so loads 46 and 54, all on the healthy
// host. All degraded: degraded load 100, an empty table, no host.
func TestHashDegradedLoadUsesHealthyTable(t *testing.T) {
	even := func(_, src []lbmodel.Host) ([]float64, error) {
		out := make([]float64, len(src))
		for i := range out {
			out[i] = 1 / float64(len(src))
		}
		return out, nil
	}
	lb := lbmodel.HostLB{Policy: lbmodel.PolicyPrecomputed, Precomputed: even}
	hosts := []lbmodel.Host{{Address: "h", Weight: 1, Status: lbmodel.StatusHealthy},
		{Address: "d1", Weight: 1, Status: lbmodel.StatusDegraded}, {Address: "d2", Weight: 1, Status: lbmodel.StatusDegraded}}
	s, err := lbmodel.ClusterShares(lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lb})
	if err != nil {
		t.Fatal(err)
	}
	if l := s.Load.Levels[0]; l.HealthyLoad != 46 || l.DegradedLoad != 54 {
		t.Fatalf("loads %+v", l)
	}
	sharesEqual(t, "one healthy", s.Hosts, []float64{1, 0, 0}, 1e-15)
	s, err = lbmodel.ClusterShares(lbmodel.ClusterInput{Hosts: hosts[1:], PanicThreshold: 50, LB: lb})
	if err != nil {
		t.Fatal(err)
	}
	sharesEqual(t, "all degraded", s.Hosts, []float64{0, 0}, 0)
	if s.NoHost != 1 {
		t.Errorf("no-host share %v, want 1", s.NoHost)
	}
	// Round robin, by contrast, sends the degraded load to degraded hosts.
	s, _ = lbmodel.ClusterShares(lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: lbmodel.HostLB{Policy: lbmodel.PolicyRoundRobin}})
	sharesEqual(t, "round robin", s.Hosts, []float64{0.46, 0.27, 0.27}, 1e-12)
}
