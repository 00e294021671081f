package config

import (
	"strings"
	"testing"
)

// TestTabIndentedComment: yaml-cpp skips a comment whose indentation holds
// tabs (src/scanner.cpp ScanToNextToken eats ' ' and '\t'), so Envoy loads
// such a file; positions after it are unchanged (an unknown field on the
// next line is still reported at its own line and column).
func TestTabIndentedComment(t *testing.T) {
	data := "static_resources:\n  clusters:\n\t\t  # a comment indented with tabs\n  - name: a\n    conect_timeout: 1s\n"
	cfg, _ := LoadBytes("tab.yaml", []byte(data), "")
	if len(cfg.Problems) != 1 {
		t.Fatalf("problems %v, want one unknown field", cfg.Problems)
	}
	p := cfg.Problems[0]
	if p.Code != CodeUnknownField || p.Pos.Line != 5 || p.Pos.Col != 5 {
		t.Errorf("got %s %v, want unknown-field at 5:5", p.Code, p.Pos)
	}
	if cfg.Cluster("a") == nil {
		t.Error("cluster a not read")
	}
	// A tab that is not before a comment is still a syntax error.
	_, err := LoadBytes("tab.yaml", []byte("clusters:\n\t- name: a\n"), "")
	if err == nil || !strings.Contains(err.Error(), "invalid YAML") {
		t.Errorf("tab indentation accepted: %v", err)
	}
}

// TestYamlCppBools: a bool field takes what yaml-cpp's convert<bool>::decode
// takes (src/convert.cpp): y/n, yes/no, true/false, on/off in lowercase,
// UPPERCASE or Capitalised form, unquoted; anything else stays an error.
func TestYamlCppBools(t *testing.T) {
	cases := map[string]bool{
		"y": true, "Y": true, "n": false, "N": false,
		"yes": true, "Yes": true, "YES": true, "no": false, "No": false, "NO": false,
		"on": true, "On": true, "ON": true, "off": false, "Off": false, "OFF": false,
		"true": true, "True": true, "TRUE": true, "false": false, "False": false, "FALSE": false,
	}
	for text, want := range cases {
		data := "name: a\nignore_health_on_host_removal: " + text + "\ncommon_lb_config: {close_connections_on_host_set_change: " + text + "}\n"
		cfg, err := LoadBytes("b.yaml", []byte(data), "")
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		c := cfg.Cluster("a").Proto
		if c.GetIgnoreHealthOnHostRemoval() != want || c.GetCommonLbConfig().GetCloseConnectionsOnHostSetChange() != want {
			t.Errorf("%s read as %v, want %v", text, c.GetIgnoreHealthOnHostRemoval(), want)
		}
	}
	for _, text := range []string{"yES", "YeS", "oN", "tRUE", "'yes'", "\"on\"", "1", "enabled"} {
		_, err := LoadBytes("b.yaml", []byte("name: a\nignore_health_on_host_removal: "+text+"\n"), "")
		if err == nil || !strings.Contains(err.Error(), "expected true or false") {
			t.Errorf("%s: got %v, want a type error", text, err)
		}
	}
	// BoolValue wrappers take the same spellings.
	cfg, err := LoadBytes("b.yaml", []byte("name: r\nvalidate_clusters: Yes\nvirtual_hosts: []\n"), KindRoutes)
	if err != nil || len(cfg.Routes) != 1 || !cfg.Routes[0].GetValidateClusters().GetValue() {
		t.Errorf("validate_clusters: Yes: %v %v", err, cfg.Routes)
	}
}

// TestRouteListDetection: a list of RouteConfigurations with only route
// fields (no virtual_hosts) is read as routes, not clusters, in either
// spelling, and --kind routes takes the list too.
func TestRouteListDetection(t *testing.T) {
	data := "- name: r1\n  validateClusters: false\n- name: r2\n  ignore_port_in_host_matching: true\n"
	for _, kind := range []string{"", KindRoutes} {
		cfg, err := LoadBytes("r.yaml", []byte(data), kind)
		if err != nil {
			t.Fatalf("kind %q: %v", kind, err)
		}
		if len(cfg.Clusters) != 0 || len(cfg.Routes) != 2 || !cfg.Routes[1].GetIgnorePortInHostMatching() {
			t.Errorf("kind %q: %d clusters, routes %v", kind, len(cfg.Clusters), cfg.Routes)
		}
	}
	// A cluster with only its name, or with a misspelt field, is still a
	// cluster (the typo is reported with a suggestion).
	cfg, _ := LoadBytes("c.yaml", []byte("- name: a\n- name: b\n  conect_timeout: 1s\n  type: STATIC\n"), "")
	if len(cfg.Clusters) != 2 || len(cfg.Problems) != 1 || !strings.Contains(cfg.Problems[0].Msg, "did you mean \"connect_timeout\"") {
		t.Errorf("clusters %d, problems %v", len(cfg.Clusters), cfg.Problems)
	}
}

// TestNotEnvoyList: a list of mappings that no Envoy schema knows beyond
// "name" (go-control-plane's dyplomat lists Kubernetes API servers so) is
// one unknown-document error, not an unknown field per key.
func TestNotEnvoyList(t *testing.T) {
	data := "# clusters to extend the mesh to\n- name: demo1\n  server: https://api.example\n  ca: Q0E=\n- name: demo2\n  server: https://api2.example\n  ca: Q0E=\n"
	cfg, _ := LoadBytes("k.yaml", []byte(data), "")
	if len(cfg.Problems) != 1 || cfg.Problems[0].Code != CodeUnknownKind || cfg.Problems[0].Pos.Line != 2 {
		t.Errorf("problems %v, want one unknown-kind at line 2", cfg.Problems)
	}
}

// TestEmptyMapping: `{}` (Kuma's empty golden files) is an empty document,
// as `[]` is.
func TestEmptyMapping(t *testing.T) {
	for _, data := range []string{"{}\n", "[]\n", "--- {}\n--- []\n"} {
		cfg, err := LoadBytes("e.yaml", []byte(data), "")
		if err != nil || len(cfg.Problems) != 0 || len(cfg.Clusters) != 0 {
			t.Errorf("%q: %v %v", data, err, cfg.Problems)
		}
	}
}

// TestBareBootstrapDump: `istioctl proxy-config bootstrap -o json` prints a
// BootstrapConfigDump without "@type"; it is read as a dump (Envoy wrote
// it) without --kind, and grouped as one configuration.
func TestBareBootstrapDump(t *testing.T) {
	data := `{
  "bootstrap": {
    "node": {"id": "sidecar~10.0.0.1~a.default~default.svc.cluster.local"},
    "staticResources": {"clusters": [{"name": "xds-grpc", "type": "STATIC", "connectTimeout": "1s",
      "loadAssignment": {"clusterName": "xds-grpc", "endpoints": [{"lbEndpoints": [{"endpoint": {"address": {"socketAddress": {"address": "10.0.0.9", "portValue": 15012}}}}]}]}}]}
  },
  "lastUpdated": "2024-05-01T10:00:00Z"
}`
	cfg, err := LoadBytes("bd.json", []byte(data), "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Cluster("xds-grpc") == nil || !cfg.EnvoyWritten("bd.json") {
		t.Errorf("clusters %v, written %v", cfg.ClusterNames(), cfg.EnvoyWritten("bd.json"))
	}
	if got := cfg.Sources.Pos(cfg.Cluster("xds-grpc").Proto); got.Line != 4 {
		t.Errorf("cluster at %v, want line 4", got)
	}
}

// TestEgctlProxyConfig: `egctl config envoy-proxy all -o yaml` output
// (namespace -> pod -> config dump or dump section) gives one
// configuration per proxy, with positions in the original file.
func TestEgctlProxyConfig(t *testing.T) {
	path := "../../fixtures/inputs/egctl-config.yaml"
	cfgs, err := LoadGroups([]Input{{Path: path}}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 2 {
		t.Fatalf("%d configurations, want 2", len(cfgs))
	}
	for i, want := range []struct {
		host string
		line int
	}{{"10.8.0.1", 9}, {"10.9.0.1", 26}} {
		cl := cfgs[i].Cluster("httproute/default/web/rule/0")
		if cl == nil {
			t.Fatalf("proxy %d: no cluster", i)
		}
		got := cl.Assignment.GetEndpoints()[0].GetLbEndpoints()[0].GetEndpoint().GetAddress().GetSocketAddress().GetAddress()
		pos := cfgs[i].Sources.Pos(cl.Proto)
		if got != want.host || pos.File != path || pos.Line != want.line {
			t.Errorf("proxy %d: host %s at %v, want %s at line %d", i, got, pos, want.host, want.line)
		}
	}
}

// TestTemplatePlaceholders: unrendered {{…}} placeholders are one notice
// per file, at the first, and their values are unknown.
func TestTemplatePlaceholders(t *testing.T) {
	data := "name: a\ntype: STATIC\nload_assignment:\n  cluster_name: a\n  endpoints:\n  - lb_endpoints:\n    - endpoint:\n        address:\n          socket_address:\n            address: {{.Addr}}\n            port_value: {{ .Port }}\n"
	// One notice at the first placeholder; the cluster is read, its
	// address and port unknown, with no error.
	cfg, err := LoadBytes("t.yaml", []byte(data), "")
	if err != nil || len(cfg.Problems) != 1 {
		t.Fatalf("err %v, problems %v", err, cfg.Problems)
	}
	p := cfg.Problems[0]
	if p.Code != CodeSyntax || p.Severity != SevInfo || p.Pos.Line != 10 || p.Pos.Col != 22 || !strings.Contains(p.Msg, "{{.Addr}}") {
		t.Errorf("problem %v %s, want the notice naming {{.Addr}} at 10:22", p.Pos, p.Msg)
	}
	if len(cfg.Clusters) != 1 || !cfg.Sources.Unknown(Pos{File: "t.yaml", Line: 9}) || cfg.Sources.Unknown(Pos{File: "t.yaml", Line: 2}) {
		t.Errorf("clusters %d; the socket address should be unknown, the cluster's type not", len(cfg.Clusters))
	}
}

// TestEgctlWithoutXDS: egctl translate output with no xds section is one
// error saying so, at the top of the document.
func TestEgctlWithoutXDS(t *testing.T) {
	data := "gatewayClass:\n  kind: GatewayClass\ngateways:\n- kind: Gateway\nxdsIR:\n  default/eg: {}\n"
	cfg, _ := LoadBytes("ir.yaml", []byte(data), "")
	if len(cfg.Problems) != 1 || cfg.Problems[0].Code != CodeUnknownKind || cfg.Problems[0].Msg != egctlWithoutXDSMsg || cfg.Problems[0].Pos.Line != 1 {
		t.Errorf("problems %v", cfg.Problems)
	}
}
