package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An EDS cluster whose ClusterLoadAssignment is not in the input is not an
// outage: text says "no endpoints in the input" instead of "availability
// 0%, TOTAL PANIC" and shows no priority table or budgets; JSON keeps
// Envoy's figures for a cluster without hosts and says endpoints_missing.
func TestExplainEDSWithoutEndpoints(t *testing.T) {
	f := filepath.Join(t.TempDir(), "eds.yaml")
	os.WriteFile(f, []byte("name: web\ntype: EDS\neds_cluster_config: {eds_config: {ads: {}}}\n"), 0o644)
	code, out, errs := termRun(t, nil, "explain", f)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	if !strings.Contains(out, "no endpoints in the input") || strings.Contains(out, "availability") ||
		strings.Contains(out, "TOTAL PANIC") || strings.Contains(out, "PRIORITY") || strings.Contains(out, "Failure budget") ||
		!strings.Contains(out, "no ClusterLoadAssignment for it was loaded") {
		t.Errorf("text:\n%s", out)
	}
	_, out, _ = termRun(t, nil, "explain", f, "-o", "json")
	var r struct {
		Clusters []struct {
			EndpointsMissing bool `json:"endpoints_missing"`
			TotalPanic       bool `json:"total_panic"`
			Priorities       []struct {
				HealthyLoad int `json:"healthy_load"`
			} `json:"priorities"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Clusters) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	c := r.Clusters[0]
	if !c.EndpointsMissing || !c.TotalPanic || len(c.Priorities) != 1 || c.Priorities[0].HealthyLoad != 100 {
		t.Errorf("json: %+v", c)
	}
}

// An aggregate whose EDS children have no assignment in the input says
// their endpoints are missing, not that every request fails; a
// zone-aware cluster read without its bootstrap does not claim that no
// local cluster is configured.
func TestExplainMissingContext(t *testing.T) {
	dir := t.TempDir()
	agg := filepath.Join(dir, "agg.yaml")
	os.WriteFile(agg, []byte(`name: agg
connect_timeout: 1s
lb_policy: CLUSTER_PROVIDED
cluster_type:
  name: envoy.clusters.aggregate
  typed_config:
    "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
    clusters: [a, b]
---
name: a
type: EDS
eds_cluster_config: {eds_config: {ads: {}}}
---
name: b
type: EDS
eds_cluster_config: {eds_config: {ads: {}}}
`), 0o644)
	_, out, _ := termRun(t, nil, "explain", agg, "--cluster", "agg")
	if !strings.Contains(out, "no endpoints in the input") || !strings.Contains(out, "the children's endpoints are not in the input") ||
		strings.Contains(out, "every request fails") || strings.Contains(out, "availability") {
		t.Errorf("aggregate:\n%s", out)
	}
	zone := filepath.Join(dir, "zone.yaml")
	os.WriteFile(zone, []byte(`name: z
connect_timeout: 1s
type: STATIC
common_lb_config: {zone_aware_lb_config: {}}
load_assignment:
  cluster_name: z
  endpoints:
  - locality: {zone: a}
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
`), 0o644)
	_, out, _ = termRun(t, nil, "explain", zone)
	if strings.Contains(out, "no local cluster is configured") || !strings.Contains(out, "which is not in the input") {
		t.Errorf("zone-aware without bootstrap:\n%s", out)
	}
}
