package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/proxyless"
)

func sessionPick(t *testing.T, args ...string) proxyless.SessionReport {
	t.Helper()
	var r proxyless.SessionReport
	grpcJSON(t, &r, append([]string{"session", "../fixtures/grpc/session.yaml"}, args...)...)
	return r
}

// The cases of gRFC A75's Pick pseudo-code ("Changes in xds_override_host
// LB Policy"), through the CLI. svc's override_host_status is [HEALTHY,
// UNKNOWN, DRAINING]; by default 10.40.0.1 and 10.40.0.2 (P0, usable) are
// READY and every other endpoint has no subchannel.
func TestSessionA75Pick(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		args                 []string
		result, host, action string
		reason               string
	}{
		{"READY cookie host is picked", []string{"--cookie", "10.40.0.2:80"}, "pick", "10.40.0.2:80", "", "has a READY subchannel"},
		{"health not in override_host_status is skipped",
			[]string{"--cookie", "10.40.0.4:80,10.40.0.1:80"}, "pick", "10.40.0.1:80", "", ""},
		{"READY wins over an earlier entry without subchannel",
			[]string{"--cookie", "10.40.1.1:80", "--cookie", "10.40.0.1:80"}, "pick", "10.40.0.1:80", "", ""},
		{"IDLE: connect and queue",
			[]string{"--cookie", "10.40.0.1:80", "--state", "10.40.0.1:80=IDLE"}, "queue", "10.40.0.1:80", "connect", "is IDLE"},
		{"IDLE preferred over an earlier CONNECTING",
			[]string{"--cookie", "10.40.0.2:80,10.40.0.1:80", "--state", "10.40.0.2:80=CONNECTING", "--state", "10.40.0.1:80=IDLE"}, "queue", "10.40.0.1:80", "connect", ""},
		{"CONNECTING only: queue",
			[]string{"--cookie", "10.40.0.1:80", "--state", "10.40.0.1:80=CONNECTING"}, "queue", "", "", "waiting for CONNECTING 10.40.0.1:80"},
		{"CONNECTING preferred over no subchannel",
			[]string{"--cookie", "10.40.1.1:80,10.40.0.1:80", "--state", "10.40.0.1:80=CONNECTING"}, "queue", "", "", "waiting for CONNECTING"},
		{"no subchannel (lower priority): create one and queue",
			[]string{"--cookie", "10.40.1.1:80"}, "queue", "10.40.1.1:80", "create_subchannel", ""},
		{"DRAINING allowed by override_host_status",
			[]string{"--cookie", "10.40.0.3:80"}, "queue", "10.40.0.3:80", "create_subchannel", ""},
		{"TRANSIENT_FAILURE only: child picks",
			[]string{"--cookie", "10.40.0.1:80", "--state", "10.40.0.1:80=TRANSIENT_FAILURE"}, "delegate", "", "", "10.40.0.1:80 (TRANSIENT_FAILURE)"},
		{"address not in the cluster: child picks",
			[]string{"--cookie", "192.0.2.1:80"}, "delegate", "", "", "not an endpoint of the cluster"},
		{"no cookie", nil, "delegate", "", "", "no session cookie"},
		{"failover: P1 in use has READY subchannels",
			[]string{"--cookie", "10.40.1.1:80", "--ready", "svc/0=no"}, "pick", "10.40.1.1:80", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := sessionPick(t, append([]string{"--cluster", "svc"}, tc.args...)...)
			host := ""
			if r.Host != nil {
				host = *r.Host
			}
			if r.Result != tc.result || host != tc.host || r.Action != tc.action || !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("got %s host %q action %q (%s); want %s host %q action %q (reason containing %q)",
					r.Result, host, r.Action, r.Reason, tc.result, tc.host, tc.action, tc.reason)
			}
		})
	}
}

func TestSessionConfig(t *testing.T) {
	r := sessionPick(t, "--cluster", "svc", "--cookie", "10.40.0.1:80")
	if strings.Join(r.OverrideHostStatus, ",") != "HEALTHY,UNKNOWN,DRAINING" || r.IdleTimeoutSeconds != 600 {
		t.Errorf("svc: override_host_status %v, idle_timeout %gs", r.OverrideHostStatus, r.IdleTimeoutSeconds)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "override_host_status DEGRADED is ignored") {
		t.Errorf("svc notes: %v", r.Notes)
	}
	// Default [UNKNOWN, HEALTHY]: DRAINING is not overridable; the idle
	// timeout in typed_extension_protocol_options is Envoy's, gRPC's is 1 h.
	r = sessionPick(t, "--cluster", "plain", "--cookie", "10.41.0.2:80")
	if r.Result != "delegate" || strings.Join(r.OverrideHostStatus, ",") != "UNKNOWN,HEALTHY" || r.IdleTimeoutSeconds != 3600 {
		t.Errorf("plain: %s, %v, %gs", r.Result, r.OverrideHostStatus, r.IdleTimeoutSeconds)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "gRPC reads it only from upstream_config") {
		t.Errorf("plain notes: %v", r.Notes)
	}
	out, _, code := grpcCLI(t, "session", "../fixtures/grpc/session.yaml", "--cluster", "svc", "--cookie", "10.40.0.2:80")
	if code != 0 || !strings.HasPrefix(out, "svc  PICK 10.40.0.2:80\n") || !strings.Contains(out, "idle_timeout 10m0s") {
		t.Errorf("text output:\n%s", out)
	}
}

func TestSessionErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		// A75: idle_timeout seconds outside [0, 315576000000] NACK the cluster.
		{[]string{"--cluster", "badtimeout", "--cookie", "10.42.0.1:80"}, ExitInput, "session.yaml:33:1: cluster \"badtimeout\": gRPC (C-core) NACKs cluster badtimeout: idle_timeout: seconds -1 outside [0, 315576000000]"},
		{[]string{"--cluster", "svc", "--state", "192.0.2.9:80=READY"}, ExitUsage, "not an endpoint address of cluster svc"},
		{[]string{"--cluster", "svc", "--state", "10.40.0.1:80=UP"}, ExitUsage, "unknown connectivity state"},
		{[]string{"--cluster", "nope"}, ExitUsage, `--cluster "nope": no such cluster`},
		{[]string{"--cookie", "10.40.0.1:80"}, ExitUsage, "cluster"},
	} {
		_, errOut, code := grpcCLI(t, append([]string{"session", "../fixtures/grpc/session.yaml"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
	// Session affinity is per leaf cluster after A75.
	_, errOut, code := grpcCLI(t, "session", "../fixtures/grpc/aggregate.yaml", "--cluster", "agg", "--cookie", "10.20.0.1:80")
	if code != ExitUsage || !strings.Contains(errOut, "run session with --cluster set to one of a, b") {
		t.Errorf("aggregate: exit %d, stderr %q", code, errOut)
	}
}

// grpc-go implements no xds_override_host (gRFC A75): the cookie is
// ignored and the child policy picks (issue 14: it used to answer as C-core).
func TestSessionGRPCGo(t *testing.T) {
	r := sessionPick(t, "--cluster", "svc", "--cookie", "10.40.0.2:80", "--grpc-impl", "go")
	if r.Result != "delegate" || r.Host != nil || !strings.Contains(r.Reason, "grpc-go has no stateful session affinity") {
		t.Errorf("%+v", r)
	}
}

// Under Envoy semantics (the default) session also answers as Envoy does
// (HostUtility::selectOverrideHost): the session host when its health is
// in override_host_status (unset: UNKNOWN, HEALTHY, DEGRADED), else the
// load balancer, or a 503 with a strict filter. --semantics grpc leaves
// Envoy's answer out.
func TestSessionEnvoyAnswer(t *testing.T) {
	t.Chdir("..")
	type envoy struct {
		Result string  `json:"result"`
		Host   *string `json:"host"`
		Strict bool    `json:"strict"`
		Filter string  `json:"filter"`
	}
	run := func(args ...string) (string, *envoy) {
		code, out, errs := termRun(t, nil, append([]string{"session", "-o", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		var r struct {
			Result string `json:"result"`
			Envoy  *envoy `json:"envoy"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r.Result, r.Envoy
	}
	f := "fixtures/grpc/session-envoy.yaml"
	for _, c := range []struct {
		cookie, want, host string
	}{
		{"10.50.0.1:80", "pick", "10.50.0.1:80"},
		{"10.50.0.2:80", "pick", "10.50.0.2:80"}, // DEGRADED is in Envoy's default set
		{"10.50.0.3:80", "fail", ""},             // UNHEALTHY, strict filter
		{"10.9.9.9:80", "fail", ""},
	} {
		_, e := run(f, "--cluster", "web", "--cookie", c.cookie)
		if e == nil || e.Result != c.want || !e.Strict || e.Filter != "fixtures/grpc/session-envoy.yaml:22:9" ||
			(c.host == "") != (e.Host == nil) || (e.Host != nil && *e.Host != c.host) {
			t.Errorf("cookie %s: envoy %+v, want %s %s", c.cookie, e, c.want, c.host)
		}
	}
	// No filter loaded: not strict, so the load balancer picks.
	grpcResult, e := run("fixtures/grpc/session.yaml", "--cluster", "svc", "--cookie", "10.40.0.4:80")
	if e == nil || e.Result != "delegate" || e.Strict || e.Filter != "" || grpcResult != "delegate" {
		t.Errorf("no filter: grpc %s, envoy %+v", grpcResult, e)
	}
	if _, e := run(f, "--cluster", "web", "--cookie", "10.50.0.1:80", "--semantics", "grpc"); e != nil {
		t.Errorf("--semantics grpc: Envoy's answer %+v is printed too", e)
	}
}
