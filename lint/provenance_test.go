package lint

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// An admin /config_dump as Envoy 1.x writes it: a static cluster echoed
// with a hidden_envoy_deprecated_* field, its endpoints with locality
// weight 0 (Envoy's spelling of "unweighted"), and an assignment of a
// cluster the (trimmed) dump does not list.
const envoyDump = `configs:
- '@type': type.googleapis.com/envoy.admin.v3.ClustersConfigDump
  static_clusters:
  - cluster:
      '@type': type.googleapis.com/envoy.config.cluster.v3.Cluster
      name: stats
      type: STATIC
      hidden_envoy_deprecated_tls_context: {}
      connect_timeout: 1s
- '@type': type.googleapis.com/envoy.admin.v3.EndpointsConfigDump
  static_endpoint_configs:
  - endpoint_config:
      '@type': type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment
      cluster_name: stats
      endpoints:
      - load_balancing_weight: 0
        lb_endpoints:
        - endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: 15000}}}
  dynamic_endpoint_configs:
  - endpoint_config:
      '@type': type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment
      cluster_name: trimmed
      endpoints:
      - lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
`

func TestEnvoyWrittenDump(t *testing.T) {
	cfg, err := config.LoadBytes("dump.yaml", []byte(envoyDump), "")
	if err != nil {
		t.Fatal(err)
	}
	sh := newShared(cfg)
	if !sh.envoyWritten("dump.yaml") || !sh.partialDump("dump.yaml") {
		t.Fatalf("dump not recognised: written %v partial %v", sh.envoyWritten("dump.yaml"), sh.partialDump("dump.yaml"))
	}
	for _, f := range Run(cfg, Options{}) {
		if f.Severity >= SevWarning {
			t.Errorf("dump Envoy wrote: unexpected %s %s %s", f.Severity, f.Rule, f.Message)
		}
	}
	strict := map[string]bool{}
	for _, f := range Run(cfg, Options{Strict: true}) {
		if f.Severity >= SevWarning {
			strict[f.Rule] = true
		}
	}
	for _, id := range []string{"LB0003", "LB1007", "LB0008"} {
		if !strict[id] {
			t.Errorf("--strict lost %s (got %v)", id, strict)
		}
	}
}

func TestUserFileNotEnvoyWritten(t *testing.T) {
	src := "name: web\nconnect_timeout: 1s\ntype: STATIC\nhidden_envoy_deprecated_tls_context: {}\n"
	cfg, _ := config.LoadBytes("web.yaml", []byte(src), "")
	found := false
	for _, f := range Run(cfg, Options{}) {
		found = found || f.Rule == "LB0003"
	}
	if !found {
		t.Errorf("an unknown field in a user-written file must still be reported")
	}
}
