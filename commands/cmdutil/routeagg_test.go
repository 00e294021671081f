package cmdutil

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/traffic"
)

const aggSubsetYAML = `
- name: agg
  connect_timeout: 1s
  cluster_type:
    name: envoy.clusters.aggregate
    typed_config:
      '@type': type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
      clusters: [sub, plain]
  lb_policy: CLUSTER_PROVIDED
- name: sub
  type: STATIC
  lb_subset_config: {subset_selectors: [{keys: [version]}]}
  load_assignment:
    cluster_name: sub
    endpoints:
    - lb_endpoints:
      - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
        metadata: {filter_metadata: {envoy.lb: {version: v1}}}
      - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
        metadata: {filter_metadata: {envoy.lb: {version: v2}}}
        health_status: UNHEALTHY
    - priority: 1
      lb_endpoints:
      - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
        metadata: {filter_metadata: {envoy.lb: {version: v1}}}
- name: plain
  type: STATIC
  load_assignment:
    cluster_name: plain
    endpoints:
    - lb_endpoints:
      - endpoint: {address: {socket_address: {address: 10.0.1.1, port_value: 80}}}
---
name: r
virtual_hosts:
- name: vh
  domains: [x]
  routes:
  - match: {prefix: /}
    route:
      cluster: agg
      metadata_match: {filter_metadata: {envoy.lb: {version: v2}}}
`

// An aggregate over a subset child, derived by hand. sub's P0 has 1 of 2
// hosts healthy (health min(100, 140*1/2) = 70), its P1 one healthy host
// (100): the linearized loads are sub.P0 70, sub.P1 30, plain.P0 0.
// AggregateClusterLoadBalancer::LoadBalancerImpl::chooseHost calls sub's
// load balancer with AggregateLoadBalancerContext forcing the priority
// and passing metadata_match {version: v2} on. SubsetLoadBalancer::
// chooseHostIteration selects subset {10.0.0.2}; its own load balancer
// at forced P0 finds no healthy host (availability 0: all in panic,
// recalculatePerPriorityPanic) and uses all hosts, 10.0.0.2 gets 0.7; at
// forced P1 the subset's host set is empty, chooseHostOnce returns
// nullptr and tryChooseHostFromContext returns it ("even if it's
// nullptr"): 0.3 finds no host. explain's shares (10.0.0.1 0.7, 10.0.0.3
// 0.3) are what a request without subsets would get.
func TestRouteAggregateSubsetChild(t *testing.T) {
	cfg, err := config.LoadBytes("agg.yaml", []byte(aggSubsetYAML), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := route.Build(cfg, route.Request{Authority: "x", Path: "/"}, route.Options{}, RouteBalancers(cfg, model.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hosts) != 1 || r.Hosts[0] != (route.HostShare{Cluster: "sub", Address: "10.0.0.2:80", Share: 0.7}) {
		t.Fatalf("hosts %+v, want sub 10.0.0.2:80 0.7", r.Hosts)
	}
	got := strings.Join(r.Notes, "\n")
	for _, want := range []string{`cluster "agg": 0.3 of its requests find no host`, `cluster "sub" picks inside its subset at the priority the aggregate forces`} {
		if !strings.Contains(got, want) {
			t.Errorf("no note %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"agg" has no subset load balancing`) {
		t.Errorf("stale note:\n%s", got)
	}
}

// Criteria v1 select {10.0.0.1 (P0), 10.0.0.3 (P1)}: each forced priority
// of the subset has one healthy host, so 0.7 and 0.3, as explain's.
func TestRouteAggregateSubsetChildBothPriorities(t *testing.T) {
	cfg, err := config.LoadBytes("agg.yaml", []byte(strings.Replace(aggSubsetYAML, "metadata_match: {filter_metadata: {envoy.lb: {version: v2", "metadata_match: {filter_metadata: {envoy.lb: {version: v1", 1)), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := route.Build(cfg, route.Request{Authority: "x", Path: "/"}, route.Options{}, RouteBalancers(cfg, model.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []route.HostShare{{Cluster: "sub", Address: "10.0.0.1:80", Share: 0.7}, {Cluster: "sub", Address: "10.0.0.3:80", Share: 0.3}}
	if len(r.Hosts) != 2 || r.Hosts[0] != want[0] || r.Hosts[1] != want[1] {
		t.Fatalf("hosts %+v, want %+v", r.Hosts, want)
	}
}

// failAggYAML is route-subset.yaml's fail cluster without panic_mode_any
// (so its fallback pool's fail_traffic_on_panic share finds no host),
// behind an aggregate agg.
func failAggYAML(t *testing.T) *config.Config {
	t.Helper()
	data, err := os.ReadFile("testdata/route-subset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(data), "    default_subset: {version: v1}\n    panic_mode_any: true\n", "    default_subset: {version: v1}\n", 1)
	y = strings.Replace(y, "- name: fail\n", `- name: agg
  connect_timeout: 1s
  cluster_type:
    name: envoy.clusters.aggregate
    typed_config:
      '@type': type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
      clusters: [fail]
  lb_policy: CLUSTER_PROVIDED
- name: fail
`, 1)
	cfg, err := config.LoadBytes("fail-agg.yaml", []byte(y), "")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The subset LB's no-host share is noted for the cluster itself, not for
// it as an aggregate's child. Alone, {version: v9} falls back to
// DEFAULT_SUBSET v1: P0 1 of 4 healthy (25, panic), P1 1 of 2 (50) at
// overprovisioning 100 make loads 34 and 66; fail_traffic_on_panic fails
// P0's 0.34. Behind agg, fail's P0 (3 of 6 healthy) and P1 (1 of 2) get
// 50 each; forced P0 the pool is in panic and fails, forced P1 its one
// healthy host 10.6.1.1 takes 0.5: the aggregate's 0.5 finds no host.
func TestRouteAggregateChildNoHostNote(t *testing.T) {
	cfg := failAggYAML(t)
	crit := map[string]any{"version": "v9"}
	h, ok, err := SubsetHosts(cfg, cfg.Cluster("fail"), crit, "", route.Request{}, model.Options{})
	if err != nil || !ok {
		t.Fatalf("SubsetHosts: %v, %v", ok, err)
	}
	const subsetNote = `cluster "fail": 0.34 of its requests find no host in the subset load balancer`
	if len(h.Hosts) != 1 || h.Hosts[0].Address != "10.6.1.1:80" || h.Hosts[0].Share != 0.66 || !slices.Contains(h.Notes, subsetNote) {
		t.Errorf("SubsetHosts: %+v", h)
	}
	h, ok, err = RouteBalancers(cfg, model.Options{}).Aggregate("agg", crit, "", route.Request{})
	if err != nil || !ok {
		t.Fatalf("aggregateHosts: %v, %v", ok, err)
	}
	if len(h.Hosts) != 1 || h.Hosts[0] != (route.HostShare{Cluster: "fail", Address: "10.6.1.1:80", Share: 0.5}) {
		t.Errorf("aggregateHosts hosts: %+v", h.Hosts)
	}
	got := strings.Join(h.Notes, "\n")
	if strings.Contains(got, "in the subset load balancer") || !strings.Contains(got, `cluster "agg": 0.5 of its requests find no host`) {
		t.Errorf("aggregateHosts notes:\n%s", got)
	}
}

// A request to an aggregate builds its explain report once, whether a
// child needs composing (metadata_match v2 reaches sub's subset LB) or
// not (the route without metadata_match to an aggregate over plain
// alone, where aggregateHosts declines and Hosts answers).
func TestRouteAggregateExplainsOnce(t *testing.T) {
	builds := map[string]int{}
	counting := func(cfg *config.Config, cls []*config.Cluster, opt model.Options) (*traffic.Report, error) {
		for _, cl := range cls {
			builds[cl.Name()]++
		}
		return explain.Build(cfg, cls, opt)
	}
	plainOnly := strings.Replace(strings.Replace(aggSubsetYAML, "clusters: [sub, plain]", "clusters: [plain]", 1),
		"      metadata_match: {filter_metadata: {envoy.lb: {version: v2}}}\n", "", 1)
	for _, c := range []struct {
		name, yaml string
		want       []route.HostShare
	}{
		{"subset child", aggSubsetYAML, []route.HostShare{{Cluster: "sub", Address: "10.0.0.2:80", Share: 0.7}}},
		{"no child to compose", plainOnly, []route.HostShare{{Cluster: "plain", Address: "10.0.1.1:80", Share: 1}}},
	} {
		clear(builds)
		cfg, err := config.LoadBytes("agg.yaml", []byte(c.yaml), "")
		if err != nil {
			t.Fatal(err)
		}
		r, err := route.Build(cfg, route.Request{Authority: "x", Path: "/"}, route.Options{}, routeBalancers(cfg, model.Options{}, counting))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Hosts, c.want) {
			t.Errorf("%s: hosts %+v, want %+v", c.name, r.Hosts, c.want)
		}
		if builds["agg"] != 1 {
			t.Errorf("%s: explain built agg %d times, want 1", c.name, builds["agg"])
		}
	}
}

// A cluster not in the config is an error from Aggregate as from Subset,
// not a silent "nothing to compose".
func TestRouteBalancersUnknownCluster(t *testing.T) {
	cfg, err := config.LoadBytes("agg.yaml", []byte(aggSubsetYAML), "")
	if err != nil {
		t.Fatal(err)
	}
	lb := RouteBalancers(cfg, model.Options{})
	const want = "not in the loaded config: its hosts are unknown"
	if _, ok, err := lb.Subset("nope", nil, "", route.Request{}); ok || err == nil || err.Error() != want {
		t.Errorf("Subset: %v, %v", ok, err)
	}
	if _, ok, err := lb.Aggregate("nope", nil, "", route.Request{}); ok || err == nil || err.Error() != want {
		t.Errorf("Aggregate: %v, %v", ok, err)
	}
}
