package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoPriorityDump is an admin config_dump of backend: P0 10.0.0.1-4, P1
// 10.0.1.1-3, all HEALTHY in EDS.
const twoPriorityDump = `{"configs": [
 {"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump", "dynamic_active_clusters": [
  {"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "backend", "type": "EDS",
   "eds_cluster_config": {"eds_config": {"ads": {}}}}}]},
 {"@type": "type.googleapis.com/envoy.admin.v3.EndpointsConfigDump", "dynamic_endpoint_configs": [
  {"endpoint_config": {"@type": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment", "cluster_name": "backend",
   "endpoints": [
    {"lb_endpoints": [%s]},
    {"priority": 1, "lb_endpoints": [%s]}]}}]}]}`

func endpoints(prefix string, n int) string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf(`{"endpoint": {"address": {"socket_address": {"address": "%s.%d", "port_value": 8080}}}, "health_status": "HEALTHY"}`, prefix, i))
	}
	return strings.Join(out, ",")
}

// twoPriorityClusters is /clusters?format=json with 10.0.1.2 and 10.0.1.3
// ejected by outlier detection.
func twoPriorityClusters() string {
	var hs []string
	for _, a := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.1.1", "10.0.1.2", "10.0.1.3"} {
		extra := ""
		if a == "10.0.1.2" || a == "10.0.1.3" {
			extra = `, "failed_outlier_check": true`
		}
		hs = append(hs, fmt.Sprintf(`{"address": {"socket_address": {"address": "%s", "port_value": 8080}}, "health_status": {"eds_health_status": "HEALTHY"%s}}`, a, extra))
	}
	return `{"cluster_statuses": [{"name": "backend", "host_statuses": [` + strings.Join(hs, ",") + `]}]}`
}

// TestSweepAdmin: lbctl sweep --admin sweeps the running Envoy's cluster
// with its live health on the levels not varied. P1 has 1 of 3 healthy
// (health 140/3 = 46): P0 at 2 of 4 (70) gives availability 116, loads
// 70/30; at 1 of 4 (35) availability 81 < 100, and both levels are below
// 50% healthy (25%, 33%): both panic, total panic, and the load goes by
// host count, 4:3 → 57/42 with the remainder point to P0
// (LoadBalancerBase::recalculateLoadInTotalPanic): 58/42.
// The same sweep from the saved answers as files is the same table.
func TestSweepAdmin(t *testing.T) {
	dump := fmt.Sprintf(twoPriorityDump, endpoints("10.0.0", 4), endpoints("10.0.1", 3))
	srv, n := adminServer(t, "", []byte(dump), []byte(twoPriorityClusters()))
	rows := sweepCSV(t, "--admin", srv.URL, "--cluster", "backend")
	if n.Load() != 2 {
		t.Errorf("%d requests, want 2", n.Load())
	}
	want := map[string][]string{
		"4": {"100", "0", "false", "false", "false"},
		"2": {"70", "30", "false", "false", "false"},
		"1": {"58", "42", "true", "true", "true"},
	}
	for healthy, w := range want {
		r := csvRow(t, rows, "healthy", healthy)
		if got := cols(r, "p0_load", "p1_load", "p0_panic", "p1_panic", "total_panic"); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("P0 %s of 4: %v, want %v", healthy, got, w)
		}
	}
	dir := t.TempDir()
	dumpFile, clustersFile := filepath.Join(dir, "config_dump.json"), filepath.Join(dir, "clusters.json")
	os.WriteFile(dumpFile, []byte(dump), 0o644)
	os.WriteFile(clustersFile, []byte(twoPriorityClusters()), 0o644)
	live, _, _ := run(t, "", "sweep", "--admin", srv.URL, "--cluster", "backend", "-o", "json")
	saved, _, _ := run(t, "", "sweep", dumpFile, clustersFile, "--cluster", "backend", "-o", "json")
	if live != saved {
		t.Errorf("sweep --admin differs from the saved answers:\n%s\nvs\n%s", live, saved)
	}
	// Without /clusters' health P1 is fully healthy: 1 of 4 gives 35/65.
	if r := csvRow(t, sweepCSV(t, dumpFile, "--cluster", "backend"), "healthy", "1"); r["p0_load"] != "35" {
		t.Errorf("config_dump alone: P0 at 1 of 4 takes %s, want 35", r["p0_load"])
	}
	if _, errs, code := run(t, "", "sweep", "--admin", "http://192.0.2.1:9901", "--cluster", "backend"); code != ExitInput || !strings.Contains(errs, "not a loopback address") {
		t.Errorf("sweep --admin to a remote host: exit %d, %q", code, errs)
	}
}
