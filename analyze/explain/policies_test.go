package explain

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
)

const ep = "    - endpoint: {address: {socket_address: {address: %s, port_value: 80}}}\n"

func explainDoc(t *testing.T, doc string, opt model.Options) traffic.ClusterReport {
	t.Helper()
	cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(cfg, cfg.Clusters, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r.Clusters[0]
}

func checkShares(t *testing.T, cr traffic.ClusterReport, want map[string]float64) {
	t.Helper()
	for _, h := range cr.Hosts {
		w, ok := want[h.Address]
		if !ok {
			continue
		}
		if h.Share == nil || math.Abs(*h.Share-w) > 1e-12 {
			t.Errorf("%s share %v, want %v (notes %q)", h.Address, h.Share, w, cr.Notes)
		}
	}
}

func policyDoc(policy string) string {
	return `name: c
type: STATIC
load_balancing_policy:
  policies:
` + policy
}

const wrrLocality = `  - typed_extension_config:
      name: wrr
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality
        endpoint_picking_policy:
          policies:
          - typed_extension_config:
              name: child
              typed_config:
                "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.%s
`

const threeLocalities = `load_assignment:
  cluster_name: c
  endpoints:
  - locality: {zone: a}
    load_balancing_weight: 3
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      load_balancing_weight: 5
  - locality: {zone: b}
    load_balancing_weight: 1
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
  - locality: {}
    load_balancing_weight: 2
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
`

// wrr_locality turns locality weighting on (WrrLocalityLoadBalancer::
// WorkerLocalLbFactory::create) and CSWRR without ORCA reports weighs every
// host 1 (ClientSideWeightedRoundRobinLoadBalancer updateWeightsOnHosts,
// cf. its test UpdateWeightsOnHostsAllHostsHaveNoWeights): locality shares
// 3:1:2, equal inside a locality, EDS weight 5 ignored. The explicit empty
// locality {} keeps its weight 2 (initializePriorityFor: has_locality()).
func TestWrrLocalityShares(t *testing.T) {
	doc := policyDoc(strings.Replace(wrrLocality, "%s", "client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin", 1)) + threeLocalities
	cr := explainDoc(t, doc, model.Options{})
	if cr.LbPolicy != "WRR_LOCALITY" {
		t.Errorf("policy %s", cr.LbPolicy)
	}
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 0.25, "10.0.0.2:80": 0.25, "10.0.0.3:80": 1.0 / 6, "10.0.0.4:80": 1.0 / 3})
	if !strings.Contains(strings.Join(cr.Notes, "\n"), "blackout period (10s)") {
		t.Errorf("no blackout note: %q", cr.Notes)
	}
	// --host-weight: 10.0.0.1 reports 3; the rest of P0 get the median 3.
	cr = explainDoc(t, doc, model.Options{HostWeights: map[string]uint32{"10.0.0.1:80": 3}})
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 0.25, "10.0.0.4:80": 1.0 / 3})
}

// Factory::loadConfig (wrr_locality/config.h) rejects any child but CSWRR:
// an input error at the child entry (c.yaml line 11, the RoundRobin entry
// of endpoint_picking_policy), not a report.
func TestWrrLocalityRejectsOtherChild(t *testing.T) {
	doc := policyDoc(strings.Replace(wrrLocality, "%s", "round_robin.v3.RoundRobin", 1)) + threeLocalities
	checkRejected(t, doc, "c.yaml:11:13: ", "only supports ClientSideWeightedRoundRobinLoadBalancer")
}

// checkRejected: Build fails with a *model.RejectedError at pos.
func checkRejected(t *testing.T, doc, pos, msg string) {
	t.Helper()
	cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(cfg, cfg.Clusters, model.Options{})
	var re *model.RejectedError
	if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), pos) || !strings.Contains(err.Error(), msg) {
		t.Errorf("err %v, want a RejectedError at %s containing %q", err, pos, msg)
	}
}

// The first entry Envoy knows wins with its own settings
// (ClusterInfoImpl::configureLbPolicies): pick_first has no Envoy factory,
// so LeastRequest with choice_count 3 applies. Active 0,1,2 with three
// draws (unweightedHostPickNChoices): (27-8)/27, (8-1)/27, 1/27.
func TestTypedListFirstKnownWithSettings(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: pf
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.pick_first.v3.PickFirst
  - typed_extension_config:
      name: lr
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest
        choice_count: 3
`) + "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" +
		strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1) + strings.Replace(ep, "%s", "10.0.0.3", 1)
	cr := explainDoc(t, doc, model.Options{ActiveRequests: map[string]uint64{"10.0.0.2:80": 1, "10.0.0.3:80": 2}})
	if cr.LbPolicy != "LEAST_REQUEST" {
		t.Fatalf("policy %s, want LEAST_REQUEST", cr.LbPolicy)
	}
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 19.0 / 27, "10.0.0.2:80": 7.0 / 27, "10.0.0.3:80": 1.0 / 27})
}

// Round robin slow start (EdfLoadBalancerBase::applySlowStartFactor,
// cf. RoundRobinLoadBalancerTest.SlowStartWithDefaultParams): window 60s,
// default aggression 1, a host healthy for 30s gets factor 0.5, so 1/3 vs 2/3.
func TestRoundRobinSlowStart(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: rr
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin
        slow_start_config: {slow_start_window: 60s}
`) + "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" +
		strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1)
	cr := explainDoc(t, doc, model.Options{HostAges: map[string]time.Duration{"10.0.0.1:80": 30 * time.Second}})
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 1.0 / 3, "10.0.0.2:80": 2.0 / 3})
}

// A cluster without hosts: Envoy's PrioritySet has P0, 0% available, in
// panic, total panic with healthy load 100 (recalculateLoadInTotalPanic).
func TestNoHostsCluster(t *testing.T) {
	cr := explainDoc(t, "name: c\ntype: STATIC\nload_assignment: {cluster_name: c}\n", model.Options{})
	if len(cr.Priorities) != 1 || cr.Priorities[0].HealthyLoad != 100 || !cr.Priorities[0].Panic || !cr.TotalPanic {
		t.Errorf("priorities %+v total panic %v", cr.Priorities, cr.TotalPanic)
	}
}

// Locality fields in common_lb_config next to load_balancing_policy:
// configureLbPolicies rejects the cluster.
func TestTypedPolicyWithCommonLocalityRejected(t *testing.T) {
	doc := `name: c
type: STATIC
common_lb_config: {locality_weighted_lb_config: {}}
load_balancing_policy:
  policies:
  - typed_extension_config:
      name: r
      typed_config: {"@type": type.googleapis.com/envoy.extensions.load_balancing_policies.random.v3.Random}
load_assignment:
  cluster_name: c
  endpoints:
  - lb_endpoints:
` + strings.Replace(ep, "%s", "10.0.0.1", 1)
	checkRejected(t, doc, "c.yaml:3:19: ", "cannot be combined with partial fields")
}

// Request-time policies are described, never "unknown".
func TestRequestTimePolicies(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: cp
      typed_config: {"@type": type.googleapis.com/envoy.extensions.load_balancing_policies.cluster_provided.v3.ClusterProvided}
`) + "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" + strings.Replace(ep, "%s", "10.0.0.1", 1)
	cr := explainDoc(t, doc, model.Options{})
	if cr.LbPolicy != "CLUSTER_PROVIDED" || !strings.Contains(strings.Join(cr.Notes, "\n"), "the cluster type picks the host itself") {
		t.Errorf("%s notes %q", cr.LbPolicy, cr.Notes)
	}
}

// A field newer than lbctl's protos inside a known LB type is a warning
// naming it; explain goes on (it used to fail with exit 3).
func TestNewerLBFieldWarns(t *testing.T) {
	doc := policyDoc(strings.Replace(wrrLocality, "%s", "client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin", 1)+
		"        locality_lb_config: {locality_weighted_lb_config: {}}\n") + threeLocalities
	cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range cfg.Problems {
		found = found || strings.Contains(p.Msg, `"locality_lb_config"`)
	}
	if !found {
		t.Errorf("no warning naming locality_lb_config: %v", cfg.Problems)
	}
	cr := explainDoc(t, doc, model.Options{})
	checkShares(t, cr, map[string]float64{"10.0.0.4:80": 1.0 / 3})
}

// Shares are written without float artefacts.
func TestCleanShare(t *testing.T) {
	for in, want := range map[float64]float64{0.1 + 0.2: 0.3, 0.7 + 0.2 + 0.1: 1, 1.0 / 3: 1.0 / 3, -1e-18: 0, 0.1: 0.1} {
		if got := CleanShare(in); got != want {
			t.Errorf("CleanShare(%v) = %v, want %v", in, got, want)
		}
	}
}

// Typed Random with locality_lb_config.locality_weighted_lb_config
// (RandomLoadBalancer over ZoneAwareLoadBalancerBase): localities 3:1, then
// one random number picks the host (hosts[r % 2] given the priority's
// 1..100 slice: 50/50).
func TestRandomLocalityWeighted(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: r
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.random.v3.Random
        locality_lb_config: {locality_weighted_lb_config: {}}
`) + `load_assignment:
  cluster_name: c
  endpoints:
  - locality: {zone: a}
    load_balancing_weight: 3
    lb_endpoints:
` + strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1) + `  - locality: {zone: b}
    load_balancing_weight: 1
    lb_endpoints:
` + strings.Replace(ep, "%s", "10.0.0.3", 1)
	cr := explainDoc(t, doc, model.Options{})
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 0.375, "10.0.0.2:80": 0.375, "10.0.0.3:80": 0.25})
}

// An explicit active_request_bias selects the weighted path even with equal
// weights (LeastRequestLoadBalancer::hostWeight, runtime guard
// least_request_lb_active_request_bias_forces_weighted): bias 0.5, active 0
// and 3 → weights 1/1 and 1/2 → 2/3 and 1/3.
func TestLeastRequestBias(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: lr
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest
        active_request_bias: {default_value: 0.5, runtime_key: k}
`) + "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" +
		strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1)
	cr := explainDoc(t, doc, model.Options{ActiveRequests: map[string]uint64{"10.0.0.2:80": 3}})
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 2.0 / 3, "10.0.0.2:80": 1.0 / 3})
}

// Least request slow start (LeastRequestLoadBalancer::hostWeight ×
// applySlowStartFactor): while a host is in its window the EDF is used even
// with equal weights; window 100s, aggression 2, age 25s: (0.25)^(1/2) =
// 0.5, below min_weight_percent 60, so 0.6 → 0.6/1.6 and 1/1.6.
func TestLeastRequestSlowStartParams(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: lr
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest
        slow_start_config:
          slow_start_window: 100s
          aggression: {default_value: 2, runtime_key: a}
          min_weight_percent: {value: 60}
`) + "load_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n" +
		strings.Replace(ep, "%s", "10.0.0.1", 1) + strings.Replace(ep, "%s", "10.0.0.2", 1)
	cr := explainDoc(t, doc, model.Options{HostAges: map[string]time.Duration{"10.0.0.1:80": 25 * time.Second}})
	checkShares(t, cr, map[string]float64{"10.0.0.1:80": 0.375, "10.0.0.2:80": 0.625})
}

// Typed Random's zone_aware_lb_config.fail_traffic_on_panic: a priority in
// panic gets no host (ZoneAwareLoadBalancerBase::hostSourceToUse).
func TestRandomFailTrafficOnPanic(t *testing.T) {
	doc := policyDoc(`  - typed_extension_config:
      name: r
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.load_balancing_policies.random.v3.Random
        locality_lb_config: {zone_aware_lb_config: {fail_traffic_on_panic: true}}
`) + `load_assignment:
  cluster_name: c
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      health_status: UNHEALTHY
`
	cr := explainDoc(t, doc, model.Options{})
	if cr.NoHostShare != 1 {
		t.Errorf("no_host_share %v, want 1", cr.NoHostShare)
	}
}
