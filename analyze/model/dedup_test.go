package model

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestDuplicateAddressByType: EDS keeps only the first endpoint of an
// address (EdsClusterImpl::BatchUpdateHelper::updateLocalityEndpoints,
// across priorities); StaticClusterImpl registers every endpoint.
func TestDuplicateAddressByType(t *testing.T) {
	doc := func(typ string) string {
		return "name: c\nconnect_timeout: 1s\ntype: " + typ + "\n" + map[string]string{"EDS": "eds_cluster_config: {eds_config: {ads: {}}}\n"}[typ] +
			`load_assignment:
  cluster_name: c
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
  - priority: 1
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
`
	}
	for typ, want := range map[string]int{"EDS": 2, "STATIC": 3} {
		cfg, err := config.LoadBytes("c.yaml", []byte(doc(typ)), "")
		if err != nil {
			t.Fatal(err)
		}
		m := Of(cfg, cfg.Clusters[0])
		if len(m.Hosts) != want {
			t.Errorf("%s: %d hosts, want %d", typ, len(m.Hosts), want)
		}
		if typ == "EDS" && (m.Hosts[0].Priority != 0 || m.Hosts[1].Address != "10.0.0.2:80") {
			t.Errorf("EDS kept %+v, want the first 10.0.0.1 (P0) and 10.0.0.2", m.Hosts)
		}
	}
}
