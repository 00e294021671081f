package hash

import (
	"math"
	"testing"
)

// hostOverloadFactor by hand: factor 150, 9 active → total (10·150+99)/100
// = 15; weights 0.5 and 0.25 → ceil 7.5 = 8 and ceil 3.75 = 4; a tiny
// weight still gets 1 slot.
func TestBoundedLoadSlots(t *testing.T) {
	nw := NormalizedWeights{Hosts: []WeightedHost{{Weight: 0.5}, {Weight: 0.25}, {Weight: 1e-9}}}
	got := BoundedLoadCaps(nw, 9, 150)
	want := []uint32{8, 4, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("host %d: %d slots, want %d", i, got[i], want[i])
		}
	}
	// No traffic yet: (1·125+99)/100 = 2.
	if s := BoundedLoadSlots(0, 125, 1); s != 2 {
		t.Errorf("idle: %d", s)
	}
	if !BoundedLoadOverloaded(9, 8) || BoundedLoadOverloaded(8, 8) {
		t.Error("overload is strictly above the slots")
	}
}

// Issue 14: a host with no ring entry made the imbalance +Inf (and JSON
// fail); it is counted as starved and the ratio stays finite.
func TestShareImbalanceFinite(t *testing.T) {
	sh := []HostShare{{Share: 0.5}, {Share: 0.25}, {Share: 0}, {Share: 0.25}}
	r, starved := ShareImbalance(sh, []float64{0.25, 0.25, 0.25, 0.25})
	if r != 2 || starved != 1 || math.IsInf(r, 0) {
		t.Errorf("ratio %v starved %d", r, starved)
	}
	if r, s := ShareImbalance([]HostShare{{Share: 1}, {Share: 0}}, []float64{0.5, 0.5}); r != 0 || s != 1 {
		t.Errorf("one live host: %v %d", r, s)
	}
}
