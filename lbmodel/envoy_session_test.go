package lbmodel

import "testing"

// Cases of Envoy's HostUtilityTest.SelectOverrideHostTest
// (test/common/upstream/host_utility_test.cc): a host missing from the
// map, a host whose status is not expected, one whose status is, each in
// strict and non-strict mode; plus the default status set.
func TestEnvoySessionPick(t *testing.T) {
	hosts := []Host{
		{Address: "1.2.3.4:80", Status: StatusHealthy},
		{Address: "1.2.3.5:80", Status: StatusUnhealthy, Priority: 1},
		{Address: "1.2.3.6:80", Status: StatusDegraded, Priority: 1},
	}
	for _, c := range []struct {
		value   string
		allowed []HealthStatus
		strict  bool
		want    string
		host    string
	}{
		{"", nil, false, "delegate", ""},
		{"9.9.9.9:80", nil, false, "delegate", ""},
		{"9.9.9.9:80", nil, true, "fail", ""},
		{"1.2.3.5:80", []HealthStatus{StatusHealthy}, false, "delegate", ""},
		{"1.2.3.5:80", []HealthStatus{StatusHealthy}, true, "fail", ""},
		{"1.2.3.5:80", []HealthStatus{StatusUnhealthy}, true, "pick", "1.2.3.5:80"},
		{"1.2.3.4:80", []HealthStatus{StatusHealthy}, true, "pick", "1.2.3.4:80"},
		// Unset override_host_status: UNKNOWN, HEALTHY and DEGRADED.
		{"1.2.3.6:80", nil, false, "pick", "1.2.3.6:80"},
		{"1.2.3.5:80", nil, false, "delegate", ""},
		// The cookie holds one address; a list is not a host.
		{"1.2.3.4:80,1.2.3.6:80", nil, false, "delegate", ""},
	} {
		r := EnvoySessionPick(c.value, hosts, c.allowed, c.strict)
		if r.Result != c.want || r.Host != c.host || r.Reason == "" {
			t.Errorf("%q %v strict=%v: %+v, want %s %q", c.value, c.allowed, c.strict, r, c.want, c.host)
		}
	}
}
