package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigDump is an admin config_dump of n EDS clusters (round robin, ring
// hash and Maglev in turn), each with four endpoints in two localities;
// changed names a cluster whose last endpoint is drained (weight 1 → 5).
func bigDump(n int, changed string) []byte {
	var cl, eds strings.Builder
	policies := []string{"ROUND_ROBIN", "RING_HASH", "MAGLEV", "LEAST_REQUEST"}
	for i := range n {
		name := fmt.Sprintf("svc-%05d", i)
		if i > 0 {
			cl.WriteString(",\n")
			eds.WriteString(",\n")
		}
		fmt.Fprintf(&cl, `{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": %q, "type": "EDS", "eds_cluster_config": {"eds_config": {"ads": {}}}, "connect_timeout": "1s", "lb_policy": %q}}`, name, policies[i%len(policies)])
		w := 1
		if name == changed {
			w = 5
		}
		fmt.Fprintf(&eds, `{"endpoint_config": {"@type": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment", "cluster_name": %q, "endpoints": [`, name)
		for z := range 2 {
			if z > 0 {
				eds.WriteString(",")
			}
			fmt.Fprintf(&eds, `{"locality": {"region": "r", "zone": "z%d"}, "lb_endpoints": [`, z)
			for h := range 2 {
				if h > 0 {
					eds.WriteString(",")
				}
				weight := 1
				if z == 1 && h == 1 {
					weight = w
				}
				fmt.Fprintf(&eds, `{"endpoint": {"address": {"socket_address": {"address": "10.%d.%d.%d", "port_value": 80}}}, "health_status": "HEALTHY", "load_balancing_weight": %d}`, i/256, i%256, z*2+h, weight)
			}
			eds.WriteString("]}")
		}
		eds.WriteString("]}}")
	}
	return []byte(`{"configs": [{"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump", "dynamic_active_clusters": [` + cl.String() +
		`]}, {"@type": "type.googleapis.com/envoy.admin.v3.EndpointsConfigDump", "dynamic_endpoint_configs": [` + eds.String() + `]}]}`)
}

// writeBigPair writes a 10,000-cluster config_dump and the same dump with
// one cluster changed.
func writeBigPair(tb testing.TB, n int, changed string) (old, new string) {
	tb.Helper()
	dir := tb.TempDir()
	old, new = filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	if err := os.WriteFile(old, bigDump(n, ""), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(new, bigDump(n, changed), 0o644); err != nil {
		tb.Fatal(err)
	}
	return old, new
}

// onlyChanged runs lbctl diff -o json and checks that it reports exactly
// the changed cluster.
func onlyChanged(tb testing.TB, old, new, changed string) {
	out, errs, code := runCLI("", nil, "diff", old, new, "-o", "json")
	if code != 0 {
		tb.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		tb.Fatal(err)
	}
	if len(r.Clusters) != 1 || r.Clusters[0].Name != changed {
		tb.Fatalf("want exactly %s, got %+v", changed, r.Clusters)
	}
}

func TestDiffBigDumpReportsOnlyTheChange(t *testing.T) {
	old, new := writeBigPair(t, 1000, "svc-00421")
	onlyChanged(t, old, new, "svc-00421")
}

// BenchmarkDiff10k is the acceptance case: a 10,000-cluster config_dump
// against itself with one cluster changed, the whole command (read, lint
// and compare both sides, write JSON). Run with
// go test ./commands -run '^$' -bench Diff10k -benchtime 3x
func BenchmarkDiff10k(b *testing.B) {
	old, new := writeBigPair(b, 10000, "svc-04242")
	b.ResetTimer()
	for range b.N {
		onlyChanged(b, old, new, "svc-04242")
	}
}
