package subset

import (
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// A subset's child LB balances over its healthy hosts, and over all of them
// only in panic (LoadBalancerBase::recalculatePerPriorityPanic).
func TestReceiving(t *testing.T) {
	h := func(a string, s lbmodel.HealthStatus) lbmodel.Host { return lbmodel.Host{Address: a, Status: s} }
	receiving := func(hosts []lbmodel.Host) []lbmodel.Host { return receiving(hosts, 140, false, 50) }
	got := receiving([]lbmodel.Host{h("a", lbmodel.StatusUnhealthy), h("b", lbmodel.StatusHealthy), h("c", lbmodel.StatusHealthy)})
	if len(got) != 2 || got[0].Address+got[1].Address != "bc" {
		t.Errorf("healthy members: %v", got)
	}
	if got := receiving([]lbmodel.Host{h("a", lbmodel.StatusUnhealthy), h("b", lbmodel.StatusUnhealthy)}); len(got) != 2 {
		t.Errorf("panic: %v", got)
	}
	// One healthy host of ten: 10% x 1.4 = 14% < 50%, so the level is in
	// panic and all ten receive traffic, not just the healthy one.
	ten := []lbmodel.Host{h("h", lbmodel.StatusHealthy)}
	for i := 0; i < 9; i++ {
		ten = append(ten, h(string(rune('0'+i)), lbmodel.StatusUnhealthy))
	}
	if got := receiving(ten); len(got) != 10 {
		t.Errorf("1 of 10 healthy: %d receive, want all 10 (panic)", len(got))
	}
	// P0 healthy takes all the load: P1's hosts receive nothing.
	p1 := h("p1", lbmodel.StatusHealthy)
	p1.Priority = 1
	if got := receiving([]lbmodel.Host{h("a", lbmodel.StatusHealthy), p1}); len(got) != 1 || got[0].Address != "a" {
		t.Errorf("priorities: %v", got)
	}
}
