package config

import (
	"strings"
	"testing"
)

// TestBareTokensInFlowMappings: HOST_IP-style tokens are placeholders in a
// flow mapping too ({address: HOST_IP, port_value: HOST_PORT}), both on one
// line, quoted or not; a token that does not end the value is not one.
func TestBareTokensInFlowMappings(t *testing.T) {
	cases := []struct{ in, want string }{
		{`- endpoint: {address: {socket_address: {address: HOST_IP, port_value: HOST_PORT}}}`,
			`- endpoint: {address: {socket_address: {address: ¤1xxxxx, port_value: ¤2xxxxxxx}}}`},
		{`{address: "UPSTREAM_HOST", port_value: 80}`, `{address: "¤1xxxxxxxxxxx", port_value: 80}`},
		{`{address: HOST_IP.example.com, port_value: 80}`, ""},
		{`{name: HOST_IP, port_value: 80}`, ""},
	}
	for _, c := range cases {
		got, tpl := detemplate(c.in)
		if c.want == "" {
			if tpl != nil {
				t.Errorf("%s: replaced as %s", c.in, got)
			}
			continue
		}
		if got != c.want || tpl == nil || !tpl.bare || !strings.HasPrefix(tpl.first, "HOST_IP") && !strings.HasPrefix(tpl.first, "UPSTREAM_HOST") {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
