package commands

import (
	"fmt"
	"strings"
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
