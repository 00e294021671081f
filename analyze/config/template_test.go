package config

import "testing"

// TestUpperAfterKeyIsNecessary: wherever tplBare or tplBareFlow matches,
// upperAfterKey holds, so skipping the patterns when it does not changes
// nothing.
func TestUpperAfterKeyIsNecessary(t *testing.T) {
	lines := []string{
		`port_value: HOST_PORT`, `  - address: "UPSTREAM_HOST"`, `portValue:PORT # the port`,
		`{address: HOST_IP, port_value: PORT}`, `{"address" : 'BACKEND', "port": 80}`,
		"{address:\tHOST_IP}", `{port_value: PORT_X, x: 1}`, `transport: NONE`, `address: 10.0.0.1`,
		`{"socket_address":{"address":"10.0.0.0","port_value":8080}}`, `port: 'ABCD'`,
	}
	for _, l := range lines {
		matches := tplBare.MatchString(l) || tplBareFlow.MatchString(l)
		if matches && !upperAfterKey(l) {
			t.Errorf("%q: a pattern matches but upperAfterKey is false", l)
		}
	}
	if upperAfterKey(`{"socket_address":{"address":"10.0.0.0","port_value":8080}}`) {
		t.Error("a dump line of numbers and addresses must not need the patterns")
	}
}
