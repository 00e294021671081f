package explain

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/model"
)

// singleHostDup: DEFAULT_SUBSET {stage: prod} and a single_host_per_subset
// selector. SubsetLoadBalancer (subset_lb.cc) returns 10.0.0.1 for
// {version: v1} and drops the second v1 host; 10.0.0.3 carries no key and
// the default subset is 10.0.0.4 only, so 10.0.0.2 and 10.0.0.3 get no
// request.
const singleHostDup = `
name: web
connect_timeout: 1s
type: STATIC
lb_subset_config:
  fallback_policy: DEFAULT_SUBSET
  default_subset: {stage: prod}
  subset_selectors: [{keys: [version], single_host_per_subset: true}]
load_assignment:
  cluster_name: web
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {stage: prod}}}
`

// TestUnreachedNote: explain names the hosts no request reaches and why,
// and leaves the shares over all hosts (25% each of four equal hosts).
func TestUnreachedNote(t *testing.T) {
	const want = `endpoint 10.0.0.3:80 is in no subset; endpoint 10.0.0.2:80 is only in single_host_per_subset subset {version: "v1"}, which returns only 10.0.0.1:80; and default_subset {stage: "prod"} does not match them, so no request reaches them whatever the health of the hosts: their shares above are never sent (LB1311)`
	c := loadYAML(t, singleHostDup)
	r, err := Build(c, c.Clusters, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cr := r.Clusters[0]
	found := 0
	for _, n := range cr.Notes {
		if strings.Contains(n, "LB1311") {
			found++
			if n != want {
				t.Errorf("note:\n got  %s\n want %s", n, want)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d LB1311 notes in %q", found, cr.Notes)
	}
	for _, h := range cr.Hosts {
		if h.Share == nil || *h.Share != 0.25 {
			t.Errorf("%s: share %v, want 0.25", h.Address, h.Share)
		}
	}
	c = loadYAML(t, strings.Replace(singleHostDup, "fallback_policy: DEFAULT_SUBSET", "fallback_policy: ANY_ENDPOINT", 1))
	if r, err = Build(c, c.Clusters, model.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(r.Clusters[0].Notes, "\n"); strings.Contains(n, "LB1311") {
		t.Errorf("ANY_ENDPOINT reaches every host, yet:\n%s", n)
	}
}
