package model

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel/subset"
)

// unreachedWeb: NO_FALLBACK and one selector; 10.0.0.2 (healthy) and
// 10.0.0.3 (UNHEALTHY) carry no version key, so no request reaches them.
const unreachedWeb = `name: web
connect_timeout: 1s
type: STATIC
lb_subset_config:
  subset_selectors: [{keys: [version]}]
load_assignment:
  cluster_name: web
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
      health_status: UNHEALTHY
`

func unreachedOf(t *testing.T, src string) (subset.Unreachability, string) {
	t.Helper()
	cfg, err := config.LoadBytes("x.yaml", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	cl := cfg.Cluster("web")
	s, _ := Subset(cfg, cl)
	m := Get(cfg, cl)
	lb, err := subset.NewLB(s.Config, m.Hosts)
	if err != nil {
		t.Fatal(err)
	}
	note, n := UnreachedNote(cl, m, lb)
	if u := UnreachedHealthy(cl, m, lb); n != len(u.Hosts) {
		t.Errorf("note counts %d hosts, UnreachedHealthy %d", n, len(u.Hosts))
	}
	return UnreachedHealthy(cl, m, lb), note
}

// TestUnreachedHealthy: only the healthy unreached host is LB1311's (an
// unhealthy one gets no traffic anyway), and the note names only it.
func TestUnreachedHealthy(t *testing.T) {
	u, note := unreachedOf(t, unreachedWeb)
	if len(u.Hosts) != 1 || u.Hosts[0].Host != 1 {
		t.Errorf("hosts %+v, want only index 1 (10.0.0.2)", u.Hosts)
	}
	const want = "endpoint 10.0.0.2:80 is in no subset and fallback_policy NO_FALLBACK picks no host, so no request reaches it whatever the health of the hosts"
	if note != want {
		t.Errorf("note %q\nwant %q", note, want)
	}
}

// TestUnreachedPerRequest: a dynamic forward proxy's or an ORIGINAL_DST
// cluster's hosts are made per request, so nothing is unreached.
func TestUnreachedPerRequest(t *testing.T) {
	for _, typ := range []string{
		"type: ORIGINAL_DST",
		"cluster_type: {name: envoy.clusters.dynamic_forward_proxy, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.clusters.dynamic_forward_proxy.v3.ClusterConfig, dns_cache_config: {name: c}}}",
	} {
		src := strings.Replace(unreachedWeb, "type: STATIC", typ, 1)
		if u, note := unreachedOf(t, src); len(u.Hosts) != 0 || note != "" {
			t.Errorf("%s: hosts %+v, note %q; want none", typ, u.Hosts, note)
		}
	}
}
