package route

import "testing"

// The contract finds the HTTP connection manager by type at any depth of
// a listener's filter chains, not only as a top-level filter.
func TestNestedHCM(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/nested-hcm.yaml")
	r, err := Build(cfg, Request{Path: "/x"}, Options{Listener: "wrapped"}, Balancers{})
	if err != nil {
		t.Fatal(err)
	}
	if r.RouteConfig != "wrapped_routes" || r.Cluster != "app" {
		t.Fatalf("route config %q cluster %q, want wrapped_routes app", r.RouteConfig, r.Cluster)
	}
}
