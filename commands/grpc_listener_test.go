package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// A non-optional HTTP filter gRPC does not implement makes it NACK the
// api_listener (grpc-go processHTTPFilters): lint --target grpc says so,
// and explain --semantics grpc shows no traffic for the cluster it routes
// to, saying why; with the filter optional, traffic flows.
func TestGRPCListenerNACK(t *testing.T) {
	const bad, good = "../fixtures/lint/LB1712-bad.yaml", "../fixtures/lint/LB1712-good.yaml"
	out, _, code := run(t, "", "lint", "--target", "grpc", bad)
	if code != ExitFindings || !strings.Contains(out, "LB1712") || !strings.Contains(out, "NACK") {
		t.Errorf("lint: exit %d\n%s", code, out)
	}
	for _, impl := range []string{"go", "core"} {
		var r struct {
			Clusters []struct {
				Priorities []struct {
					HealthyLoad int `json:"healthy_load"`
				} `json:"priorities"`
				Hosts       []struct{ Share *float64 } `json:"hosts"`
				NoHostShare float64                    `json:"no_host_share"`
				Notes       []string                   `json:"notes"`
			} `json:"clusters"`
		}
		out, errOut, code := run(t, "", "explain", "--semantics", "grpc", "--grpc-impl", impl, "-o", "json", bad)
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil || len(r.Clusters) != 1 {
			t.Fatalf("%s: exit %d %s\n%s", impl, code, errOut, out)
		}
		c := r.Clusters[0]
		for _, p := range c.Priorities {
			if p.HealthyLoad != 0 {
				t.Errorf("%s: a priority carries load %d", impl, p.HealthyLoad)
			}
		}
		if !strings.Contains(strings.Join(c.Notes, "\n"), `NACKs listener "svc.example.com"`) {
			t.Errorf("%s: notes %q", impl, c.Notes)
		}
		out, _, _ = run(t, "", "explain", "--semantics", "grpc", "--grpc-impl", impl, "-o", "json", good)
		if strings.Contains(out, "NACKs listener") || !strings.Contains(out, `"healthy_load": 100`) {
			t.Errorf("%s: the good listener is treated as NACKed:\n%s", impl, out)
		}
	}
}

// One health vocabulary, Envoy's EDS names, for a host in every report.
func TestHealthWordsAgree(t *testing.T) {
	const f = "../fixtures/lint/LB1114-good.yaml" // one host, no health_status: UNKNOWN
	for _, args := range [][]string{
		{"explain", "-o", "json", f},
		{"explain", "--semantics", "grpc", "-o", "json", f},
		{"hash", "--cluster", "web", "-o", "json", f},
	} {
		out, _, code := run(t, "", args...)
		if code != 0 || !strings.Contains(out, `"health": "UNKNOWN"`) || strings.Contains(out, `"health": "healthy"`) {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}
