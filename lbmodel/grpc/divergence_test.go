package grpc

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// One case per row of grpc.md §16: a config that triggers the row, with the
// Envoy and gRPC answers; check names the model function that agrees.
func TestEnvoyGRPCDifferences(t *testing.T) {
	cp := ClusterTraits{Type: "AGGREGATE", LBPolicy: "CLUSTER_PROVIDED"}
	tests := []struct {
		traits            ClusterTraits
		what, envoy, grpc string
		check             func(t *testing.T)
	}{
		{cp, "lb_policy CLUSTER_PROVIDED", "required", "NACK", func(t *testing.T) {
			if _, err := SelectPolicy(PolicyInput{LBPolicy: "CLUSTER_PROVIDED"}, GoImpl); err == nil {
				t.Error("grpc-go accepted CLUSTER_PROVIDED")
			}
		}},
		{ClusterTraits{Type: "AGGREGATE"}, "other than CLUSTER_PROVIDED", "rejected", "accepted", nil},
		{ClusterTraits{Type: "AGGREGATE", LBPolicy: "CLUSTER_PROVIDED", AggregateMissingChild: true}, "child missing", "skipped silently", "grpc-go: the whole aggregate fails", func(t *testing.T) {
			envoy := lbmodel.Linearize([]lbmodel.AggregateChild{{Name: "B", Kind: lbmodel.ChildMissing}, {Name: "C", Levels: []lbmodel.Level{{Hosts: 1, Healthy: 1}}}})
			g, _ := ResolveAggregate("A", graph(agg("A", "B", "C"), eds("C")))
			if len(envoy) != 1 || g.Go.Failure == "" || len(g.Core.Leaves) != 1 {
				t.Errorf("envoy %v, grpc %+v", envoy, g)
			}
		}},
		{ClusterTraits{Type: "AGGREGATE", LBPolicy: "CLUSTER_PROVIDED", AggregateNested: true}, "nested", "no hosts", "flattened recursively", func(t *testing.T) {
			envoy := lbmodel.Linearize([]lbmodel.AggregateChild{{Name: "B", Kind: lbmodel.ChildAggregate}})
			g, _ := ResolveAggregate("A", graph(agg("A", "B"), agg("B", "C"), eds("C")))
			if len(envoy) != 0 || len(g.Go.Leaves) != 1 {
				t.Errorf("envoy %v, grpc %+v", envoy, g.Go)
			}
		}},
		{ClusterTraits{Type: "AGGREGATE", LBPolicy: "CLUSTER_PROVIDED", AggregateDuplicateChild: true}, "duplicate", "linearized twice", "first position wins", func(t *testing.T) {
			l := []lbmodel.Level{{Hosts: 1, Healthy: 1}}
			envoy := lbmodel.Linearize([]lbmodel.AggregateChild{{Name: "B", Levels: l}, {Name: "B", Levels: l}})
			g, _ := ResolveAggregate("A", graph(agg("A", "B", "B"), eds("B")))
			if len(envoy) != 2 || len(g.Go.Leaves) != 1 {
				t.Errorf("envoy %v, grpc %v", envoy, g.Go.Leaves)
			}
		}},
		{ClusterTraits{Type: "AGGREGATE", LBPolicy: "CLUSTER_PROVIDED", AggregateLeafPoliciesDiffer: true}, "different LB policies", "its own", "grpc-go: the aggregate's policy", nil},
		{cp, "choosing between aggregate children", "overprovisioning", "first connectable priority", nil},
		{ClusterTraits{Priorities: 2}, "priority failover", "gradual", "all-or-nothing", func(t *testing.T) {
			// P0 with 1 of 100 healthy: Envoy sends 1%, gRPC 100%.
			envoy := lbmodel.ComputePriorityLoad([]lbmodel.Level{{Hosts: 100, Healthy: 1, OverprovisioningFactor: 140}, {Hosts: 1, Healthy: 1, OverprovisioningFactor: 140}}, 0)
			g := ChoosePriority([]PriorityChild{{Usable: 1}, {Usable: 1}}, GoImpl)
			if envoy.Levels[0].HealthyLoad != 1 || g.Load.Levels[0].HealthyLoad != 100 {
				t.Errorf("envoy %+v grpc %+v", envoy.Levels, g.Load.Levels)
			}
		}},
		{ClusterTraits{PriorityGap: true}, "priority gap", "accepted", "EDS NACK", nil},
		{ClusterTraits{LocalityWeights: true}, "without locality_weighted_lb_config", "ignored", "used", nil},
		{ClusterTraits{LocalityWithoutWeight: true}, "locality without weight", "otherwise normal", "locality dropped", func(t *testing.T) {
			s, _ := PriorityShares([]lbmodel.Host{{Address: "a", LocalityWeight: 0}, {Address: "b", Locality: lbmodel.Locality{Zone: "z"}, LocalityWeight: 1}}, Policy{Name: WrrLocality, Child: &Policy{Name: RoundRobin}})
			if s.Hosts[0].Share != 0 || s.Hosts[1].Share != 1 {
				t.Errorf("%+v", s.Hosts)
			}
		}},
		{ClusterTraits{Localities: 2}, "locality partially unhealthy", "1.4", "full weight", nil},
		{ClusterTraits{Localities: 2}, "locality pick", "EDF", "weighted random", nil},
		{ClusterTraits{EndpointWeights: true}, "endpoint weights", "honoured", "ignored", nil},
		{ClusterTraits{LBPolicy: "LEAST_REQUEST"}, "LEAST_REQUEST", "supported", "C-core NACK", func(t *testing.T) {
			p, err := SelectPolicy(PolicyInput{LBPolicy: "LEAST_REQUEST", LeastRequestChoice: u32(50)}, GoImpl)
			_, cerr := SelectPolicy(PolicyInput{LBPolicy: "LEAST_REQUEST"}, CoreImpl)
			if err != nil || p.ChoiceCount != 10 || p.LocalityLevel() || cerr == nil {
				t.Errorf("%+v %v %v", p, err, cerr)
			}
		}},
		{ClusterTraits{LBPolicy: "MAGLEV"}, "RANDOM / MAGLEV", "supported", "NACK", func(t *testing.T) {
			if _, err := SelectPolicy(PolicyInput{LBPolicy: "RANDOM"}, CoreImpl); err == nil {
				t.Error("RANDOM accepted")
			}
		}},
		{ClusterTraits{LBPolicy: "RING_HASH"}, "max ring size", "8388608", "4096", func(t *testing.T) {
			p, _ := SelectPolicy(PolicyInput{LBPolicy: "RING_HASH", RingHash: RingHashParams{MaxRingSize: u64(8388608)}}, GoImpl)
			if p.MaxRingSize != 4096 {
				t.Errorf("%+v", p)
			}
		}},
		{ClusterTraits{RingHashMurmur: true}, "MURMUR_HASH_2", "supported", "MURMUR_HASH_2 NACK", nil},
		{ClusterTraits{RingHashTypedDefaultHash: true}, "hash_function unset", "XX_HASH", "grpc-go NACK", nil},
		{ClusterTraits{LBPolicy: "RING_HASH", Priorities: 2}, "ring hash priority selection", "by request hash", "by connectivity", nil},
		{ClusterTraits{RouteHashUnsupported: true}, "cookie / source IP", "supported", "ignored", nil},
		{ClusterTraits{HasSubsets: true}, "lb_subset_config", "NO_FALLBACK", "all endpoints used", nil},
		{ClusterTraits{PanicThresholdSet: true}, "healthy_panic_threshold", "active", "ignored", nil},
		{ClusterTraits{ZoneAware: true}, "zone-aware", "supported", "ignored", nil},
		{ClusterTraits{DegradedEndpoints: true}, "DEGRADED", "degraded tier", "dropped", func(t *testing.T) {
			if lbmodel.StatusDegraded.Coarse() != lbmodel.Degraded || KeepsEndpoint(lbmodel.StatusDegraded) {
				t.Error("DEGRADED")
			}
		}},
		{ClusterTraits{DuplicateAddresses: true}, "duplicate endpoint addresses", "first kept", "NACK", nil},
		{ClusterTraits{DropOverloads: 2}, "multiple drop_overloads", "NACK", "sequentially", nil},
		{ClusterTraits{OverprovisioningFactorSet: true}, "overprovisioning_factor", "used", "ignored", nil},
		{ClusterTraits{HealthChecks: true}, "health_checks", "used", "ignored", nil},
		{ClusterTraits{OutlierDetection: true}, "consecutive_5xx", "ejects", "ignored", nil},
		{ClusterTraits{SessionAffinity: true}, "override_host_status unset", "DEGRADED]", "[UNKNOWN, HEALTHY]", func(t *testing.T) {
			r := SessionPick([]string{"a"}, []SessionEndpoint{ep("a", lbmodel.StatusDegraded, ConnReady)}, nil)
			if r.Result != "delegate" {
				t.Errorf("%+v", r)
			}
		}},
		{ClusterTraits{UpstreamConfig: true}, "upstream_config", "generic connection pool", "HttpProtocolOptions", func(t *testing.T) {
			if _, err := SessionIdleTimeout(IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: "x"}); err == nil {
				t.Error("accepted")
			}
		}},
		{ClusterTraits{Type: "STRICT_DNS"}, "STRICT_DNS", "supported", "NACK", nil},
	}
	if len(tests) != len(divergenceRows) {
		t.Fatalf("%d cases for %d rows of §16", len(tests), len(divergenceRows))
	}
	for i, tc := range tests {
		t.Run(divergenceRows[i].What, func(t *testing.T) {
			var found *Divergence
			for _, d := range Divergences(tc.traits) {
				if strings.Contains(d.What, tc.what) {
					found = &d
					break
				}
			}
			if found == nil || !strings.Contains(found.Envoy, tc.envoy) || !strings.Contains(found.GRPC, tc.grpc) {
				t.Fatalf("got %+v for %+v", found, tc.traits)
			}
			if tc.check != nil {
				tc.check(t)
			}
		})
	}
	if d := Divergences(ClusterTraits{Type: "EDS", Priorities: 1, Localities: 1}); len(d) != 0 {
		t.Errorf("plain single-priority EDS cluster: %+v", d)
	}
	if d := Divergences(ClusterTraits{Type: "AGGREGATE", TypedClusterProvided: true}); len(d) != 1 {
		t.Errorf("portable aggregate config should only differ in child choice: %+v", d)
	}
}
