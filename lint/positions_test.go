package lint

import "testing"

// Issue 19: findings point at the entry that is wrong, not the cluster.
func TestFindingsAtTheOffendingEntry(t *testing.T) {
	for _, c := range []struct{ name, rule, src, want string }{
		{"second LOGICAL_DNS locality", "LB1116", "name: w\ntype: LOGICAL_DNS\nload_assignment:\n  cluster_name: w\n  endpoints:\n" +
			"  - lb_endpoints: [{endpoint: {address: {socket_address: {address: a.example, port_value: 443}}}}]\n" +
			"  - lb_endpoints: [{endpoint: {address: {socket_address: {address: b.example, port_value: 443}}}}]\n", "7:5"},
		{"endpoint weight that overflows", "LB1119", "name: w\ntype: STATIC\nload_assignment:\n  cluster_name: w\n  endpoints:\n  - lb_endpoints:\n" +
			"    - {endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}, load_balancing_weight: 4000000000}\n" +
			"    - {endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}}\n" +
			"    - {endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}, load_balancing_weight: 300000000}\n", "9:107"},
	} {
		var got []string
		for _, f := range lintString(t, c.src, Options{}) {
			if f.Rule == c.rule {
				got = append(got, f.Pos.String())
			}
		}
		if len(got) != 1 || got[0] != "x.yaml:"+c.want {
			t.Errorf("%s: %s at %v, want x.yaml:%s", c.name, c.rule, got, c.want)
		}
	}
}
