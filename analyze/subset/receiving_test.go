package subset

import (
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// A subset's child LB balances over its healthy hosts, and over all of them
// only in panic (LoadBalancerBase::recalculatePerPriorityPanic).
func TestReceiving(t *testing.T) {
	h := func(a string, s lbmodel.HealthStatus) lbmodel.Host { return lbmodel.Host{Address: a, Status: s} }
	got := receiving([]lbmodel.Host{h("a", lbmodel.StatusUnhealthy), h("b", lbmodel.StatusHealthy), h("c", lbmodel.StatusHealthy)})
	if len(got) != 2 || got[0].Address+got[1].Address != "bc" {
		t.Errorf("healthy members: %v", got)
	}
	if got := receiving([]lbmodel.Host{h("a", lbmodel.StatusUnhealthy), h("b", lbmodel.StatusUnhealthy)}); len(got) != 2 {
		t.Errorf("panic: %v", got)
	}
}
