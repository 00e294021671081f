package subset

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestUnreachedNote: with NO_FALLBACK, SubsetLoadBalancer::chooseHostIteration
// (subset_lb.cc) returns only subset hosts; 10.0.0.2 lacks the version key,
// and the report's notes say so.
func TestUnreachedNote(t *testing.T) {
	const want = "endpoint 10.0.0.2:80 is in no subset and fallback_policy NO_FALLBACK picks no host, so no request reaches it whatever the health of the hosts (LB1311)"
	cfg, err := config.Load([]config.Input{{Path: "../../fixtures/lint/LB1311-bad.yaml"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := Build(cfg, cfg.Cluster("web"), SubsetOptions{Match: map[string]any{"version": "v1"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Result.Notes; len(n) != 1 || n[0] != want {
		t.Errorf("notes %q\nwant %s", n, want)
	}
}
