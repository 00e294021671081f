package cmdutil

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
)

// An aggregate's child with subset load balancing picks inside the subset
// the request selects (the aggregate passes its context on): not composed,
// so the route says so instead of printing explain's shares as exact.
func TestRouteAggregateSubsetChildNoted(t *testing.T) {
	const in = `
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
      metadata_match: {filter_metadata: {envoy.lb: {version: v1}}}
`
	cfg, err := config.LoadBytes("agg.yaml", []byte(in), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := route.Build(cfg, route.Request{Authority: "x", Path: "/"}, route.Options{}, RouteBalancers(cfg, model.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(r.Notes, "\n")
	if !strings.Contains(got, `cluster "sub" (in aggregate "agg") has subset load balancing`) {
		t.Errorf("no note on the subset child:\n%s", got)
	}
	if strings.Contains(got, `cluster "plain" (in aggregate`) {
		t.Errorf("note on a child without subsets:\n%s", got)
	}
}
