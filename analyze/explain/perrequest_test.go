package explain

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/model"
)

// TestPerRequestHosts: ORIGINAL_DST (original_dst_cluster.cc, host made
// from the connection or the configured header) and the dynamic forward
// proxy make hosts per request: no priority load, panic or budget, and
// the note names the header the config sets.
func TestPerRequestHosts(t *testing.T) {
	c := loadYAML(t, `
name: p
connect_timeout: 1s
type: ORIGINAL_DST
lb_policy: CLUSTER_PROVIDED
original_dst_lb_config: {use_http_header: true, http_header_name: x-dest}
`)
	r, err := Build(c, c.Clusters, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cr := r.Clusters[0]
	if cr.PerRequestHosts != "ORIGINAL_DST" || cr.TotalPanic || len(cr.Priorities) != 0 || cr.NoHostShare != 0 {
		t.Errorf("got per_request_hosts %q, total panic %v, %d priorities, no-host %v", cr.PerRequestHosts, cr.TotalPanic, len(cr.Priorities), cr.NoHostShare)
	}
	notes := strings.Join(cr.Notes, "\n")
	if !strings.Contains(notes, "x-dest header") || strings.Contains(notes, "x-envoy-original-dst-host") || strings.Contains(notes, "budget fail") {
		t.Errorf("notes:\n%s", notes)
	}
}
