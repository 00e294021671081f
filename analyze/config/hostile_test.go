package config

import (
	"strings"
	"testing"
)

// loadAs loads data as one file named name.
func loadAs(name, data string) (*Config, error) { return LoadBytes(name, []byte(data), "") }

func TestJSONTrailingCommaRejected(t *testing.T) {
	cfg, err := loadAs("c.json", "{\"name\": \"c\",\n \"type\": \"STATIC\",\n}\n")
	if err == nil || cfg.Problems.Errors()[0].Pos.String() != "c.json:2:18" || !strings.Contains(err.Error(), "trailing comma before '}'") {
		t.Fatalf("object: %v", err)
	}
	if _, err := loadAs("<stdin>", `{"name": "c", "x": [1, 2, ]}`); err == nil || !strings.Contains(err.Error(), "<stdin>:1:25: invalid JSON: trailing comma before ']'") {
		t.Fatalf("array: %v", err)
	}
	// Commas inside strings are data; YAML files keep YAML's flow rules.
	if _, err := loadAs("c.json", `{"name": "a,}", "type": "STATIC"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := loadAs("c.yaml", "{name: c, type: STATIC, }\n"); err != nil {
		t.Fatal(err)
	}
}

// Envoy's JSON parsing (protobuf JsonStringToMessage with
// allow_legacy_syntax) takes a single value where a list is expected;
// envoyproxy/examples' dynamic-config-fs lds.yaml depends on it.
func TestSingleValueForRepeatedFieldIsAList(t *testing.T) {
	cfg, err := loadAs("c.yaml", "name: c\nlb_subset_config:\n  subset_selectors: {keys: [version]}\n")
	if err != nil {
		t.Fatal(err)
	}
	sel := cfg.Clusters[0].Proto.GetLbSubsetConfig().GetSubsetSelectors()
	if len(sel) != 1 || strings.Join(sel[0].GetKeys(), ",") != "version" {
		t.Fatalf("selectors = %v", sel)
	}
}

func TestEmptyFileWarnsAtLineOne(t *testing.T) {
	for _, data := range []string{"", "  \n", "# only a comment\n"} {
		cfg, _ := loadAs("e.yaml", data)
		if len(cfg.Problems) != 1 || cfg.Problems[0].Pos.String() != "e.yaml:1:1" || cfg.Problems[0].Msg != "file has no document" {
			t.Errorf("%q: %v", data, cfg.Problems)
		}
	}
}

func TestNaNPanicThresholdRejected(t *testing.T) {
	for _, c := range []struct{ file, data, pos string }{
		{"n.yaml", "name: c\ncommon_lb_config:\n  healthy_panic_threshold: {value: .nan}\n", "n.yaml:3:36"},
		{"n.json", `{"name": "c", "common_lb_config": {"healthy_panic_threshold": {"value": "NaN"}}}`, "n.json:1:73"},
	} {
		cfg, err := loadAs(c.file, c.data)
		if err == nil || cfg.Problems.Errors()[0].Pos.String() != c.pos || !strings.Contains(err.Error(), "healthy_panic_threshold is NaN") {
			t.Errorf("%s: %v", c.file, err)
		}
	}
}

const staticWithCLA = `name: s
type: STATIC
load_assignment: {cluster_name: s, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}]}]}
---
"@type": type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment
cluster_name: s
endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.9.9.9, port_value: 80}}}}]}]
`

// A separate assignment does not replace a STATIC cluster's endpoints:
// only EDS clusters subscribe to assignments. Said, not silent.
func TestAssignmentForStaticClusterNotUsed(t *testing.T) {
	cfg, err := loadAs("s.yaml", staticWithCLA)
	if err != nil {
		t.Fatal(err)
	}
	cl := cfg.Cluster("s")
	if cl.FromEDS || cl.Assignment != cl.Proto.GetLoadAssignment() {
		t.Fatal("the separate assignment replaced the inline endpoints")
	}
	if len(cfg.Problems) != 1 || cfg.Problems[0].Pos.String() != "s.yaml:6:1" || !strings.Contains(cfg.Problems[0].Msg, `ClusterLoadAssignment for "s" is not used: the cluster is STATIC`) {
		t.Fatalf("problems: %v", cfg.Problems)
	}
}

// Two assignments for one EDS cluster: the later is used, with a warning
// at it.
func TestTwoAssignmentsForOneCluster(t *testing.T) {
	cla := func(ip string) string {
		return "---\n\"@type\": type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment\ncluster_name: e\n" +
			"endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: " + ip + ", port_value: 80}}}}]}]\n"
	}
	src := "name: e\ntype: EDS\neds_cluster_config: {eds_config: {ads: {}}}\n" + cla("10.0.0.1") + cla("10.0.0.2")
	cfg, err := loadAs("e.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.Cluster("e").Assignment
	if got := a.GetEndpoints()[0].GetLbEndpoints()[0].GetEndpoint().GetAddress().GetSocketAddress().GetAddress(); got != "10.0.0.2" {
		t.Fatalf("used %s, want the later 10.0.0.2", got)
	}
	if len(cfg.Problems) != 1 || cfg.Problems[0].Pos.String() != "e.yaml:10:1" || !strings.Contains(cfg.Problems[0].Msg, `second ClusterLoadAssignment for "e" (first at e.yaml:5:1); this later one is used`) {
		t.Fatalf("problems: %v", cfg.Problems)
	}
}

func TestScopedRoutesAndVHDSAreSaid(t *testing.T) {
	dump := `{"configs": [
 {"@type": "type.googleapis.com/envoy.admin.v3.ScopedRoutesConfigDump",
  "dynamic_scoped_route_configs": [{"name": "s", "scoped_route_configs": [{"@type": "type.googleapis.com/envoy.config.route.v3.ScopedRouteConfiguration", "name": "x", "route_configuration_name": "rc"}]}]},
 {"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump",
  "dynamic_warming_clusters": [{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "w"}}]}]}`
	cfg, err := loadAs("d.json", dump)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Problems) != 1 || cfg.Problems[0].Pos.String() != "d.json:2:2" || !strings.Contains(cfg.Problems[0].Msg, "1 scoped route configuration(s) (SRDS) not modelled") {
		t.Fatalf("problems: %v", cfg.Problems)
	}
	// A warming cluster is read, as Envoy's dump shows it.
	if cfg.Cluster("w") == nil {
		t.Fatal("warming cluster w dropped")
	}
	cfg, err = loadAs("r.yaml", "\"@type\": type.googleapis.com/envoy.config.route.v3.RouteConfiguration\nname: rc\nvhds: {config_source: {ads: {}}}\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Problems) != 1 || cfg.Problems[0].Pos.String() != "r.yaml:3:1" || !strings.Contains(cfg.Problems[0].Msg, `route configuration "rc" uses VHDS`) {
		t.Fatalf("problems: %v", cfg.Problems)
	}
}

func TestAggregateTypedConfigOfWrongType(t *testing.T) {
	src := "name: a\nlb_policy: CLUSTER_PROVIDED\ncluster_type:\n  name: envoy.clusters.aggregate\n  typed_config:\n" +
		"    \"@type\": type.googleapis.com/envoy.config.cluster.v3.Cluster\n    name: x\n"
	cfg, err := loadAs("a.yaml", src)
	if err == nil || cfg.Problems.Errors()[0].Pos.String() != "a.yaml:6:14" ||
		!strings.Contains(err.Error(), "needs a typed_config of type envoy.extensions.clusters.aggregate.v3.ClusterConfig, not envoy.config.cluster.v3.Cluster") {
		t.Fatalf("got %v", err)
	}
}

func TestPortAbove65535Rejected(t *testing.T) {
	cfg, err := loadAs("p.yaml", "name: c\ntype: STATIC\nload_assignment: {cluster_name: c, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 70000}}}}]}]}\n")
	if err == nil || cfg.Problems.Errors()[0].Pos.String() != "p.yaml:3:134" || cfg.Problems.Errors()[0].Code != CodePortRange {
		t.Fatalf("got %v", err)
	}
}

func TestHostLimitAtTheEndpointPastIt(t *testing.T) {
	defer func(n int) { maxHosts = n }(maxHosts)
	maxHosts = 3
	ep := "{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}"
	src := "name: c\ntype: STATIC\nload_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints: [" + ep + ", " + ep + "]\n  - lb_endpoints:\n    - " + ep + "\n    - " + ep + "\n"
	cfg, err := loadAs("h.yaml", src)
	if err == nil || cfg.Problems.Errors()[0].Pos.String() != "h.yaml:9:7" || !strings.Contains(err.Error(), "more than 3 endpoints in this configuration (lbctl's limit on hosts)") {
		t.Fatalf("got %v", err)
	}
}

// Found by FuzzLoadGroups: --kind client_status on a document without a
// config list dereferenced nil.
func TestClientStatusKindWithoutConfig(t *testing.T) {
	cfg, _ := LoadBytes("c.yaml", []byte("name: c\n"), KindClientStatus)
	if len(cfg.Problems) != 1 || !strings.Contains(cfg.Problems[0].Msg, "ClientStatusResponse has no config list") {
		t.Fatalf("problems: %v", cfg.Problems)
	}
}
