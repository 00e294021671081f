package explain

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
)

// TestEDSHostsFromLiveHealth: an EDS cluster whose assignment is absent
// from the dump is explained over the hosts /clusters lists, marked so;
// the host failing its outlier check is unhealthy as Envoy treats it.
func TestEDSHostsFromLiveHealth(t *testing.T) {
	cfg, err := config.Load([]config.Input{{Path: "../../fixtures/live/config_dump_no_eds.json"}, {Path: "../../fixtures/live/clusters.json"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(cfg, cfg.Clusters, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cr := r.Clusters[0]
	if !cr.HostsFromLiveHealth || cr.EndpointsMissing || len(cr.Hosts) != 4 || cr.Priorities[0].Healthy != 3 {
		t.Fatalf("from live %v, missing %v, %d hosts, %+v", cr.HostsFromLiveHealth, cr.EndpointsMissing, len(cr.Hosts), cr.Priorities)
	}
	if !strings.Contains(strings.Join(cr.Notes, "\n"), "admin /clusters reading (live health)") {
		t.Errorf("notes do not say where the hosts come from: %q", cr.Notes)
	}
}
