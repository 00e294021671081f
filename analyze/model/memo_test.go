package model

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
)

const memoDoc = `
static_resources:
  clusters:
  - name: web
    load_assignment:
      cluster_name: web
      endpoints:
      - lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
  - name: agg
    cluster_type:
      name: envoy.clusters.aggregate
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
        clusters: [web]
`

// Get builds a cluster once per config; each caller gets its own Model over
// the same hosts, and a --set-health what-if never reaches the memo.
func TestMemoSharesHostsAndKeepsWhatIfsOut(t *testing.T) {
	cfg, err := config.LoadBytes("memo.yaml", []byte(memoDoc), "")
	if err != nil {
		t.Fatal(err)
	}
	web := cfg.Cluster("web")
	a, b := Get(cfg, web), Get(cfg, web)
	if a == b || &a.Hosts[0] != &b.Hosts[0] || len(a.Hosts) != 2 {
		t.Fatalf("Get: want two Models over one host slice, got %p %p", a, b)
	}
	if cap(a.Hosts) != len(a.Hosts) {
		t.Errorf("memoized hosts have spare capacity %d > %d: an append would write into them", cap(a.Hosts), len(a.Hosts))
	}
	o, err := ParseHealthOverride("web=0%")
	if err != nil {
		t.Fatal(err)
	}
	w, notes, err := With(cfg, web, Options{SetHealth: []HealthOverride{o}})
	if err != nil || len(notes) != 1 {
		t.Fatalf("With: %v %v", notes, err)
	}
	if w.Hosts[0].Status != lbmodel.StatusUnhealthy {
		t.Errorf("what-if host status %v, want unhealthy", w.Hosts[0].Status)
	}
	if got := Get(cfg, web).Hosts[0].Status; got != lbmodel.StatusUnknown {
		t.Errorf("memoized host status %v after a what-if, want the file's UNKNOWN", got)
	}
	agg := cfg.Cluster("agg")
	if !IsAggregate(agg) || IsAggregate(web) || !Get(cfg, agg).IsAggregate {
		t.Errorf("IsAggregate: agg %v, web %v", IsAggregate(agg), IsAggregate(web))
	}
	if Settings(cfg, web) != Settings(cfg, web) {
		t.Error("Settings differ between two calls")
	}
}

// Reports and lint read the memo from both cores at once (go test -race).
func TestMemoConcurrent(t *testing.T) {
	cfg, err := config.LoadBytes("memo.yaml", []byte(memoDoc), "")
	if err != nil {
		t.Fatal(err)
	}
	Parallel(8, func(i int) {
		cl := cfg.Clusters[i%len(cfg.Clusters)]
		_ = Get(cfg, cl).Tables()
		_ = Settings(cfg, cl)
	})
}
