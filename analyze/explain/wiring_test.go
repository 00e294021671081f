package explain

import (
	"fmt"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
)

// TestConfigToModel checks that the settings the priority arithmetic
// depends on are read from real YAML: EDS health statuses, the
// overprovisioning factor, weighted_priority_health, panic thresholds
// (with Envoy's truncating conversion) and priority gaps.
func TestConfigToModel(t *testing.T) {
	const doc = `name: c
connect_timeout: 1s
common_lb_config:
  healthy_panic_threshold: {value: 29}
load_assignment:
  cluster_name: c
  policy:
    overprovisioning_factor: 200
    weighted_priority_health: true
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      health_status: HEALTHY
      load_balancing_weight: 3
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      health_status: DEGRADED
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
      health_status: DRAINING
    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
      health_status: TIMEOUT
    - endpoint: {address: {socket_address: {address: "::1", port_value: 80}}}
  - priority: 2
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.2.1, port_value: 80}}}
`
	cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	m := model.Of(cfg, cfg.Cluster("c"))
	if m.PanicThreshold != 28 {
		t.Errorf("panic threshold 29 read as %d, want 28 (convertPercent truncates)", m.PanicThreshold)
	}
	if m.OverprovisioningFactor != 200 || !m.WeightedPriorityHealth {
		t.Errorf("OPF %d weighted %v", m.OverprovisioningFactor, m.WeightedPriorityHealth)
	}
	var addrs, status []string
	for _, h := range m.Hosts {
		addrs = append(addrs, h.Address)
		status = append(status, h.Status.String())
	}
	if fmt.Sprint(addrs) != "[10.0.0.1:80 10.0.0.2:80 10.0.0.3:80 10.0.0.4:80 [::1]:80 10.0.2.1:80]" {
		t.Errorf("addresses %v", addrs)
	}
	if fmt.Sprint(status) != "[HEALTHY DEGRADED DRAINING TIMEOUT UNKNOWN UNKNOWN]" {
		t.Errorf("statuses %v", status)
	}
	levels := m.Levels()
	if len(levels) != 3 || levels[1].Hosts != 0 {
		t.Fatalf("levels %+v: want 3 with an empty P1", levels)
	}
	l := levels[0]
	if l.Hosts != 5 || l.Healthy != 2 || l.Degraded != 1 || l.Excluded != 1 {
		t.Errorf("P0 counts %+v", l)
	}
	// Weighted: healthy weight 3+1 = 4, degraded 1, total 7 - excluded 1 = 6.
	// health = 200*4/6 = 133 → 100; degraded = 200*1/6 = 33.
	h, d := l.Availability()
	if h != 100 || d != 33 {
		t.Errorf("P0 availability %d/%d, want 100/33", h, d)
	}
	pl := lbmodel.ComputePriorityLoad(levels, m.PanicThreshold)
	if got := loads(pl); fmt.Sprint(got) != "[100 0 0]" {
		t.Errorf("loads %v", got)
	}
}

// TestPanicThresholdZero: threshold 0 disables panic; with no healthy host
// all traffic goes to P0 and fails (priority.md §4.2).
func TestPanicThresholdZero(t *testing.T) {
	doc := clusterYAML("c", []int{0, 0}, 4, "  common_lb_config: {healthy_panic_threshold: {value: 0}}\n")
	cfg := loadYAML(t, doc)
	r, err := Build(cfg, []*config.Cluster{cfg.Cluster("c")}, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Clusters[0]
	if c.PanicThreshold != 0 || c.TotalPanic || c.Priorities[0].HealthyLoad != 100 || c.Priorities[0].Panic {
		t.Errorf("got %+v", c.Priorities)
	}
	if c.NoHostShare != 1 {
		t.Errorf("no-host share %v, want 1: P0 has no healthy host", c.NoHostShare)
	}
}

// TestSetHealth is the what-if of the contract.
func TestSetHealth(t *testing.T) {
	cfg := loadYAML(t, clusterYAML("c", []int{10, 10}, 10, ""))
	o, err := model.ParseHealthOverride("c/0=50")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(cfg, []*config.Cluster{cfg.Cluster("c")}, model.Options{SetHealth: []model.HealthOverride{o}})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Clusters[0].Priorities
	if p[0].Healthy != 5 || p[0].HealthyLoad != 70 || p[1].HealthyLoad != 30 {
		t.Errorf("what-if P0 50%%: %+v", p)
	}
	o, _ = model.ParseHealthOverride("c/1=3/10")
	r, _ = Build(cfg, []*config.Cluster{cfg.Cluster("c")}, model.Options{SetHealth: []model.HealthOverride{o}})
	if p := r.Clusters[0].Priorities; p[1].Healthy != 3 || p[0].HealthyLoad != 100 {
		t.Errorf("what-if P1 3/10: %+v", p)
	}
	for _, bad := range []string{"c", "c=", "c/x=5", "c=101", "c=4/3", "=5"} {
		if _, err := model.ParseHealthOverride(bad); err == nil {
			t.Errorf("ParseHealthOverride(%q) accepted", bad)
		}
	}
	if _, err := Build(cfg, cfg.Clusters, model.Options{SetHealth: []model.HealthOverride{{Spec: "x=1", Cluster: "x", Priority: -1, Percent: 1}}}); err == nil {
		t.Error("unknown cluster in --set-health accepted")
	}
}
