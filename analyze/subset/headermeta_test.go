package subset

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestHeaderToMetadataKeys: a header_to_metadata filter writing envoy.lb
// makes the route's subset depend on the request (the router merges the
// request's envoy.lb metadata over metadata_match, router.h
// metadataMatchCriteria): the note names the key and header, unless
// --match gives the key's value.
func TestHeaderToMetadataKeys(t *testing.T) {
	cfg, err := config.Load([]config.Input{{Path: "../../fixtures/subset/header-metadata"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	cl := cfg.Cluster("cluster-name")
	r, _, err := Build(cfg, cl, SubsetOptions{Route: "canary"})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(r.Routes[0].Result.Notes, "\n")
	if !strings.Contains(notes, `subset key "stage" comes from request header "x-stage"`) {
		t.Errorf("notes: %q", notes)
	}
	r, _, err = Build(cfg, cl, SubsetOptions{Route: "canary", Match: map[string]any{"stage": "dev"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(r.Routes[0].Result.Notes, "\n"); strings.Contains(n, "x-stage") || r.Routes[0].Match["stage"] != "dev" {
		t.Errorf("with --match stage=dev: match %v, notes %q", r.Routes[0].Match, n)
	}
}
