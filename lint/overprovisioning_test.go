package lint

import (
	"strings"
	"testing"
)

// Consul writes overprovisioning_factor 100000 so that a priority fails
// over only when it has no healthy host: a choice, reported as info; 10x
// is a likely unit slip, a warning.
func TestOverprovisioningDeliberate(t *testing.T) {
	doc := func(f string) string {
		return `name: web
connect_timeout: 1s
type: STATIC
load_assignment:
  cluster_name: web
  policy: {overprovisioning_factor: ` + f + `}
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
  - priority: 1
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.1.1, port_value: 80}}}
`
	}
	for f, want := range map[string]Severity{"100000": SevInfo, "1000": SevWarning} {
		var got []Finding
		for _, x := range lintString(t, doc(f), Options{}) {
			if x.Rule == "LB1512" {
				got = append(got, x)
			}
		}
		if len(got) != 1 || got[0].Severity != want {
			t.Errorf("factor %s: %+v, want one %v", f, got, want)
		}
		if f == "100000" && !strings.Contains(got[0].Message, "only when (nearly) none is left") {
			t.Errorf("factor %s: %s", f, got[0].Message)
		}
	}
}
