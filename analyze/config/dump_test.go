package config

import (
	"strings"
	"testing"
)

// TestConfigDumpOneResourceOnce: a config_dump names a bootstrap static
// cluster twice (bootstrap.static_resources, static_clusters) and a cluster
// under update twice (active, warming); each is one cluster, the serving
// one, with no duplicate-name problem.
func TestConfigDumpOneResourceOnce(t *testing.T) {
	cfg, err := Load([]Input{{Path: "../../fixtures/inputs/config-dump-duplicates.json"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.ClusterNames(); len(got) != 2 || got[0] != "xds" || got[1] != "web" {
		t.Fatalf("clusters = %v, want [xds web]", got)
	}
	for _, p := range cfg.Problems {
		if p.Code == CodeDuplicateName {
			t.Errorf("unexpected %s", p.Error())
		}
	}
	if lb := cfg.Cluster("web").Proto.GetLbPolicy().String(); lb != "LEAST_REQUEST" {
		t.Errorf("web lb_policy = %s, want the active LEAST_REQUEST, not the warming RING_HASH", lb)
	}
	if pos := cfg.Sources.Pos(cfg.Cluster("xds").Proto); pos.Line != 21 {
		t.Errorf("xds at %s, want the static_clusters entry (line 21)", pos)
	}
	if n := len(cfg.Cluster("web").Assignment.GetEndpoints()[0].GetLbEndpoints()); n != 2 {
		t.Errorf("web has %d endpoints, want 2 from EDS", n)
	}
	if !cfg.EnvoyWritten("../../fixtures/inputs/config-dump-duplicates.json") {
		t.Errorf("a config_dump is not marked as written by Envoy")
	}
	if len(cfg.Listeners) != 1 {
		t.Errorf("%d listeners, want 1 (bootstrap and static_listeners are one)", len(cfg.Listeners))
	}
}

func TestUserFileNotEnvoyWritten(t *testing.T) {
	const f = "../../fixtures/inputs/groups/edge-a.yaml"
	cfg, _ := Load([]Input{{Path: f}}, "")
	if cfg.EnvoyWritten(f) {
		t.Errorf("a bootstrap the user wrote is marked as written by Envoy")
	}
}

// TestTrimmedDump: a dump holding an assignment of a cluster it does not
// list lost part of its clusters; the loader names them.
func TestTrimmedDump(t *testing.T) {
	cfg, _ := LoadBytes("dump.json", []byte(`{"configs": [
 {"@type": "type.googleapis.com/envoy.admin.v3.EndpointsConfigDump",
  "dynamic_endpoint_configs": [{"endpoint_config": {
   "@type": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
   "cluster_name": "gone", "endpoints": []}}]}]}`), "")
	if !cfg.Trimmed("dump.json") || len(cfg.Partial) != 1 || cfg.Partial[0] != "gone" {
		t.Errorf("Trimmed %v, Partial %v; want true, [gone]", cfg.Trimmed("dump.json"), cfg.Partial)
	}
	user, _ := LoadBytes("eds.yaml", []byte("cluster_name: gone\nendpoints: []\n"), "")
	if user.Trimmed("eds.yaml") || len(user.Partial) != 0 {
		t.Errorf("a user-written assignment marks its file trimmed")
	}
}

// A config_dump is provably an excerpt when a static cluster of its
// bootstrap is missing from static_clusters (Envoy lists them all), or
// when it has dynamic clusters and no static cluster to reach xDS by.
func TestTrimmedDumpEvidence(t *testing.T) {
	const boot = `{"@type": "type.googleapis.com/envoy.admin.v3.BootstrapConfigDump", "bootstrap": {"static_resources": {"clusters": [{"name": "xds"}, {"name": "stats"}]}}}`
	cds := func(static, dynamic string) string {
		return `{"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump", "static_clusters": [` + static + `], "dynamic_active_clusters": [` + dynamic + `]}`
	}
	cl := func(name string) string {
		return `{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "` + name + `", "type": "STATIC"}}`
	}
	for _, c := range []struct {
		name    string
		configs []string
		want    bool
	}{
		{"whole", []string{boot, cds(cl("xds")+","+cl("stats"), cl("web"))}, false},
		{"bootstrap static cluster missing", []string{boot, cds(cl("xds"), cl("web"))}, true},
		{"dynamic without static", []string{cds("", cl("web"))}, true},
		{"static only", []string{cds(cl("web"), "")}, false},
	} {
		doc := `{"configs": [` + strings.Join(c.configs, ",") + `]}`
		cfg, _ := LoadBytes("dump.json", []byte(doc), "")
		if got := cfg.Trimmed("dump.json"); got != c.want {
			t.Errorf("%s: Trimmed %v, want %v (problems %v)", c.name, got, c.want, cfg.Problems)
		}
	}
}

// TestSplitDumpSections: dump sections saved one per file (istioctl/hgctl
// proxy-config style) read as one dump: the bootstrap's static cluster named
// again under ClustersConfigDump.static_clusters is one cluster.
func TestSplitDumpSections(t *testing.T) {
	dir := "../../fixtures/inputs/split-dump/"
	cfg, err := Load([]Input{{Path: dir + "bootstrap.json"}, {Path: dir + "clusters.json"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.ClusterNames(); len(got) != 1 || got[0] != "web" {
		t.Fatalf("clusters = %v, want [web]", got)
	}
	for _, p := range cfg.Problems {
		if p.Code == CodeDuplicateName {
			t.Errorf("unexpected %s", p.Error())
		}
	}
	for _, f := range []string{"bootstrap.json", "clusters.json"} {
		if !cfg.EnvoyWritten(dir + f) {
			t.Errorf("%s: a dump section is not marked as written by Envoy", f)
		}
	}
}
