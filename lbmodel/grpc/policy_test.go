package grpc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

func u64(v uint64) *uint64 { return &v }
func u32(v uint32) *uint32 { return &v }

// grpc.md §3 tables, one row per case, for both implementations.
func TestGRPCSelectPolicy(t *testing.T) {
	wrrRR := []TypedPolicy{{Type: "type.googleapis.com/" + TypeWrrLocality, EndpointPicking: []TypedPolicy{{Type: TypeRoundRobin}}}}
	clusterProvided := TypedPolicy{Type: "envoy.extensions.load_balancing_policies.cluster_provided.v3.ClusterProvided"}
	tests := []struct {
		name             string
		in               PolicyInput
		goWant, coreWant string // policy name, or "NACK: substring"
	}{
		{"§3.1 lb_policy unset = ROUND_ROBIN -> xds_wrr_locality{round_robin}", PolicyInput{}, "xds_wrr_locality_experimental/round_robin", "xds_wrr_locality_experimental/round_robin"},
		{"§3.1 RING_HASH enum", PolicyInput{LBPolicy: "RING_HASH"}, "ring_hash_experimental[1024,4096]", "ring_hash_experimental[1024,4096]"},
		{"§3.1 RING_HASH MURMUR_HASH_2 NACK", PolicyInput{LBPolicy: "RING_HASH", RingHash: RingHashParams{HashFunction: "MURMUR_HASH_2"}}, "NACK: hash_function", "NACK: hash_function"},
		{"§3.1 LEAST_REQUEST: grpc-go bare least_request, C-core NACK (WrongLbPolicy)", PolicyInput{LBPolicy: "LEAST_REQUEST"}, "least_request_experimental(2)", "NACK: not supported"},
		{"§3.3 choice_count 11 clamped to 10", PolicyInput{LBPolicy: "LEAST_REQUEST", LeastRequestChoice: u32(11)}, "least_request_experimental(10)", "NACK: not supported"},
		{"§3.3 choice_count 1 NACK", PolicyInput{LBPolicy: "LEAST_REQUEST", LeastRequestChoice: u32(1)}, "NACK: less than 2", "NACK: not supported"},
		{"§3.1 MAGLEV NACK", PolicyInput{LBPolicy: "MAGLEV"}, "NACK: unexpected lbPolicy MAGLEV", "NACK: unexpected lbPolicy MAGLEV"},
		{"§3.1 CLUSTER_PROVIDED + load_balancing_policy: grpc-go NACK, C-core uses the typed policy", PolicyInput{LBPolicy: "CLUSTER_PROVIDED", LoadBalancingPolicy: wrrRR}, "NACK: unexpected lbPolicy CLUSTER_PROVIDED", "xds_wrr_locality_experimental/round_robin"},
		{"§2.4 [ClusterProvided, WrrLocality{RoundRobin}] accepted by all", PolicyInput{LoadBalancingPolicy: append([]TypedPolicy{clusterProvided}, wrrRR...)}, "xds_wrr_locality_experimental/round_robin", "xds_wrr_locality_experimental/round_robin"},
		{"§2.4 [ClusterProvided] alone: no supported policy", PolicyInput{LoadBalancingPolicy: []TypedPolicy{clusterProvided}}, "NACK: no supported policy", "NACK: no supported policy"},
		{"§3.4 bare RoundRobin: no locality level", PolicyInput{LoadBalancingPolicy: []TypedPolicy{{Type: TypeRoundRobin}}}, "round_robin", "round_robin"},
		{"§3.2 RingHash typed, hash_function unset: grpc-go NACK, C-core XX_HASH", PolicyInput{LoadBalancingPolicy: []TypedPolicy{{Type: TypeRingHash}}}, "NACK: DEFAULT_HASH", "ring_hash_experimental[1024,4096]"},
		{"§3.3 RingHash typed min 0: grpc-go unset (1024), C-core NACK", PolicyInput{LoadBalancingPolicy: []TypedPolicy{{Type: TypeRingHash, RingHash: RingHashParams{HashFunction: "XX_HASH", MinRingSize: u64(0)}}}}, "ring_hash_experimental[1024,4096]", "NACK: must be in"},
		{"§3.3 min above cap clamped to cap", PolicyInput{LoadBalancingPolicy: []TypedPolicy{{Type: TypeRingHash, RingHash: RingHashParams{HashFunction: "XX_HASH", MinRingSize: u64(100000)}}}}, "ring_hash_experimental[4096,4096]", "ring_hash_experimental[4096,4096]"},
		{"§3.3 enum min>max: grpc-go ACK then cluster fails, C-core NACK", PolicyInput{LBPolicy: "RING_HASH", RingHash: RingHashParams{MinRingSize: u64(100), MaxRingSize: u64(10)}}, "ring_hash_experimental[100,10] fails: min 100 is greater than max 10", "NACK: min 100 is greater than max 10"},
		{"§3.3 enum max 9000000: grpc-go fails later, C-core NACK", PolicyInput{LBPolicy: "RING_HASH", RingHash: RingHashParams{MaxRingSize: u64(9000000)}}, "ring_hash_experimental[1024,4096] fails: max_ring_size value of 9000000", "NACK: max_ring_size value of 9000000"},
		{"§3.2 LeastRequest typed: C-core skips it", PolicyInput{LoadBalancingPolicy: []TypedPolicy{{Type: TypeLeastRequest}, {Type: TypePickFirst}}}, "least_request_experimental(2)", "pick_first"},
		{"§3.2 ClientSideWeightedRoundRobin", PolicyInput{LoadBalancingPolicy: []TypedPolicy{{Type: TypeClientWRR}}}, "weighted_round_robin", "weighted_round_robin"},
		{"§3.2 nesting beyond 16 levels", PolicyInput{LoadBalancingPolicy: nested(17)}, "NACK: max depth", "NACK: max depth"},
		{"§3.2 16 levels of nesting accepted", PolicyInput{LoadBalancingPolicy: nested(15)}, "ok", "ok"},
		{"local cap 1024", PolicyInput{LBPolicy: "RING_HASH", RingHashCap: 1024, RingHash: RingHashParams{MinRingSize: u64(2048)}}, "ring_hash_experimental[1024,1024]", "ring_hash_experimental[1024,1024]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				impl Impl
				want string
			}{{GoImpl, tc.goWant}, {CoreImpl, tc.coreWant}} {
				p, err := SelectPolicy(tc.in, c.impl)
				got := describePolicy(p, err)
				if c.want == "ok" {
					if err != nil {
						t.Errorf("%v: %v", c.impl, err)
					}
					continue
				}
				if want, ok := strings.CutPrefix(c.want, "NACK: "); ok {
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%v: got %q, want NACK containing %q", c.impl, got, want)
					}
					continue
				}
				if !strings.HasPrefix(got, c.want) {
					t.Errorf("%v: got %q, want prefix %q", c.impl, got, c.want)
				}
			}
		})
	}
}

func nested(n int) []TypedPolicy {
	p := []TypedPolicy{{Type: TypeRoundRobin}}
	for i := 0; i < n; i++ {
		p = []TypedPolicy{{Type: TypeWrrLocality, EndpointPicking: p}}
	}
	return p
}

func describePolicy(p Policy, err error) string {
	if err != nil {
		return "NACK: " + err.Error()
	}
	s := p.Name
	switch p.Name {
	case RingHash:
		s += fmt.Sprintf("[%d,%d]", p.MinRingSize, p.MaxRingSize)
	case LeastRequest:
		s += fmt.Sprintf("(%d)", p.ChoiceCount)
	}
	if p.Child != nil {
		s += "/" + p.Child.Name
	}
	if p.DeferredError != "" {
		s += " fails: " + p.DeferredError
	}
	return s
}

// grpc.md §12.
func TestGRPCKeepsEndpoint(t *testing.T) {
	want := map[lbmodel.HealthStatus]bool{lbmodel.StatusUnknown: true, lbmodel.StatusHealthy: true}
	for s := lbmodel.StatusUnknown; s <= lbmodel.StatusDegraded; s++ {
		if KeepsEndpoint(s) != want[s] {
			t.Errorf("%v: got %v", s, !want[s])
		}
	}
	if !KeepsForSessionAffinity(lbmodel.StatusDraining, CoreImpl) || KeepsForSessionAffinity(lbmodel.StatusDraining, GoImpl) {
		t.Error("DRAINING is kept for session affinity by C-core only")
	}
}
