package lbmodel

import "testing"

// ClusterShares asks for a priority's host source once, not once for the
// traffic and again for the locality view: a hash policy's shares are a
// table walk each time.
func TestClusterSharesAsksEachSourceOnce(t *testing.T) {
	hosts := []Host{{Address: "10.0.0.0:8080", Weight: 1}, {Address: "10.0.0.1:8080", Weight: 1}, {Address: "10.0.0.2:8080", Weight: 1}}
	hosts[2].Priority = 1
	calls := 0
	in := ClusterInput{Hosts: hosts, PanicThreshold: 50}
	in.LB.Policy = PolicyPrecomputed
	in.LB.Precomputed = func(_, source []Host) ([]float64, error) {
		calls++
		out := make([]float64, len(source))
		for i := range out {
			out[i] = 1 / float64(len(source))
		}
		return out, nil
	}
	sh, err := ClusterShares(in)
	if err != nil {
		t.Fatal(err)
	}
	// P0 takes all traffic (both hosts healthy); P1's healthy source is
	// asked for its locality view only.
	if calls != 2 {
		t.Errorf("%d calls for two priorities' healthy sources, want 2", calls)
	}
	if sh.Hosts[0] != 0.5 || sh.Hosts[1] != 0.5 || sh.Hosts[2] != 0 {
		t.Errorf("shares %v", sh.Hosts)
	}
	if l := sh.Priorities[1].Localities[0]; l.Share != 1 {
		t.Errorf("P1 locality share %v, want 1 (its own source)", l.Share)
	}
}
