package grpc

import "testing"

func TestChooseGRPCPriority(t *testing.T) {
	R, I, C, TF := ConnReady, ConnIdle, ConnConnecting, ConnTransientFailure
	tests := []struct {
		name     string // A56 section or grpc-go priority test
		children []PriorityChild
		goWant   int
		coreWant int
		goState  Connectivity
	}{
		{"A56 P0 READY keeps 100% (1 of 100 endpoints usable)",
			[]PriorityChild{{Usable: 1}, {Usable: 100}}, 0, 0, R},
		{"grpc.md §4 empty P0 (all EDS-unhealthy) fails over at once",
			[]PriorityChild{{Usable: 0}, {Usable: 3}}, 1, 1, R},
		{"A56 IDLE counts like READY", []PriorityChild{{State: I}, {State: R}}, 0, 0, I},
		{"A56 failover timer pending: wait on P0 although P1 READY (A56 Child Connectivity State Tracking)",
			[]PriorityChild{{State: C, FailoverTimerPending: true}, {State: R}}, 0, 0, C},
		{"A56 timer expired: P1 READY used (priority/TestPriority_HighPriorityToConnectingFromReady)",
			[]PriorityChild{{State: C}, {State: R}}, 1, 1, R},
		{"A56 TF P0, P1 CONNECTING without timer, P2 TF: C-core uses first CONNECTING, grpc-go the last",
			[]PriorityChild{{State: TF}, {State: C}, {State: TF}}, 2, 1, TF},
		{"all TF: last priority", []PriorityChild{{State: TF}, {State: TF}}, 1, 1, TF},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ChoosePriority(tc.children, GoImpl)
			c := ChoosePriority(tc.children, CoreImpl)
			if g.Chosen != tc.goWant || c.Chosen != tc.coreWant || g.State != tc.goState {
				t.Fatalf("grpc-go %d (%v), core %d; want %d (%v), %d\n%s\n%s", g.Chosen, g.State, c.Chosen, tc.goWant, tc.goState, tc.coreWant, g.Reason, c.Reason)
			}
			for i, l := range g.Load.Levels {
				want := 0
				if i == tc.goWant {
					want = 100
				}
				if l.HealthyLoad != want || l.DegradedLoad != 0 || l.Panic {
					t.Errorf("level %d = %+v, want healthy_load %d", i, l, want)
				}
			}
		})
	}
	if got := ChoosePriority(nil, CoreImpl); got.Chosen != -1 || got.State != TF || len(got.Load.Levels) != 0 {
		t.Errorf("empty list = %+v", got)
	}
}

func TestParseConnectivity(t *testing.T) {
	for _, s := range []string{"READY", "idle", "Connecting", "TRANSIENT_FAILURE", "NONE"} {
		c, err := ParseConnectivity(s)
		if err != nil || !equalFold(c.String(), s) {
			t.Errorf("%s -> %v, %v", s, c, err)
		}
	}
	if _, err := ParseConnectivity("SHUTDOWN"); err == nil {
		t.Error("SHUTDOWN: want error")
	}
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 32
		}
		if 'a' <= y && y <= 'z' {
			y -= 32
		}
		if x != y {
			return false
		}
	}
	return true
}
