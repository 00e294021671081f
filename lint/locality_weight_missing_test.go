package lint

import (
	"strings"
	"testing"
)

// lbWeightHalf is a locality-weighted cluster whose second locality has no
// weight; POLICY and HEALTH are filled in per case.
const lbWeightHalf = `name: web
connect_timeout: 1s
type: STATIC
lb_policy: POLICY
common_lb_config: {locality_weighted_lb_config: {}}
load_assignment:
  cluster_name: web
  endpoints:
  - locality: {zone: a}
    load_balancing_weight: 1
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      health_status: HEALTH
  - locality: {zone: b}
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
`

// TestLocalityWeightMissingConsequence: LB1602 says in which health states
// the unweighted locality gets nothing. A ring never holds its hosts
// (normalizeLocalityWeights skips weight 0, ThreadAwareLoadBalancerBase::
// refresh uses it in panic too); round robin uses them once no weighted
// locality has a healthy host (LocalityWrr::rebuildLocalityScheduler builds
// no scheduler, hostSourceToUse falls back to the priority's hosts), which
// is the state explain shows for HEALTH UNHEALTHY, so nothing is reported.
func TestLocalityWeightMissingConsequence(t *testing.T) {
	cases := []struct{ policy, health, want string }{
		{"ROUND_ROBIN", "HEALTHY", `cluster "web": locality "/b/" has no load_balancing_weight, so its 2 endpoints get no traffic while a weighted locality of P0 has a healthy host (only when none has, or P0 panics, are all its hosts used)`},
		{"ROUND_ROBIN", "UNHEALTHY", ""},
		{"RING_HASH", "HEALTHY", `cluster "web": locality "/b/" has no load_balancing_weight, so its 2 endpoints get no traffic whatever the health of P0`},
		{"MAGLEV", "UNHEALTHY", `cluster "web": locality "/b/" has no load_balancing_weight, so its 2 endpoints get no traffic whatever the health of P0`},
	}
	for _, tc := range cases {
		src := strings.NewReplacer("POLICY", tc.policy, "HEALTH", tc.health).Replace(lbWeightHalf)
		var got []string
		for _, f := range lintString(t, src, Options{}) {
			if f.Rule == "LB1602" {
				got = append(got, f.Message)
				if f.Pos.Line != 14 || f.Pos.Col != 5 {
					t.Errorf("%s/%s: at %d:%d, want 14:5", tc.policy, tc.health, f.Pos.Line, f.Pos.Col)
				}
			}
		}
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s/%s: want no LB1602, got %q", tc.policy, tc.health, got)
		case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
			t.Errorf("%s/%s: got %q\nwant %q", tc.policy, tc.health, got, tc.want)
		}
	}
}
