package grpc

import (
	"math"
	"testing"
	"time"

	"github.com/lbctl/lbctl/lbmodel"
)

func ep(addr string, st lbmodel.HealthStatus, c Connectivity) SessionEndpoint {
	return SessionEndpoint{Addresses: []string{addr}, Status: st, State: c}
}

// Each case follows one branch of gRFC A75's Pick pseudo-code.
func TestGRPCSessionPick(t *testing.T) {
	a, b, c := "10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"
	H := lbmodel.StatusHealthy
	tests := []struct {
		name                 string
		cookie               []string
		eps                  []SessionEndpoint
		status               []lbmodel.HealthStatus
		result, host, action string
	}{
		{"A75 READY found: return entry.subchannel", []string{a, b},
			[]SessionEndpoint{ep(a, H, ConnIdle), ep(b, H, ConnReady)}, nil, "pick", b, ""},
		{"A75 IDLE found first: trigger connection attempt, queue", []string{a, b, c},
			[]SessionEndpoint{ep(a, H, ConnConnecting), ep(b, H, ConnIdle), ep(c, H, ConnNone)}, nil, "queue", b, "connect"},
		{"A75 only CONNECTING: queue", []string{a, b},
			[]SessionEndpoint{ep(a, H, ConnConnecting), ep(b, H, ConnTransientFailure)}, nil, "queue", "", ""},
		{"A75 CONNECTING beats an entry without subchannel", []string{a, b},
			[]SessionEndpoint{ep(a, H, ConnNone), ep(b, H, ConnConnecting)}, nil, "queue", "", ""},
		{"A75 no subchannel: create one for the first such entry, queue", []string{a, b, c},
			[]SessionEndpoint{ep(a, H, ConnTransientFailure), ep(b, lbmodel.StatusUnknown, ConnNone), ep(c, H, ConnNone)}, nil, "queue", b, "create_subchannel"},
		{"A75 only TRANSIENT_FAILURE: delegate to child picker", []string{a},
			[]SessionEndpoint{ep(a, H, ConnTransientFailure)}, nil, "delegate", "", ""},
		{"A75 no cookie: delegate to child picker", nil,
			[]SessionEndpoint{ep(a, H, ConnReady)}, nil, "delegate", "", ""},
		{"A75 cookie address not in the address map: delegate", []string{c},
			[]SessionEndpoint{ep(a, H, ConnReady)}, nil, "delegate", "", ""},
		{"A55 DRAINING not in default override_host_status: skipped", []string{a, b},
			[]SessionEndpoint{ep(a, lbmodel.StatusDraining, ConnReady), ep(b, H, ConnIdle)}, nil, "queue", b, "connect"},
		{"A55 DRAINING in override_host_status: picked", []string{a},
			[]SessionEndpoint{ep(a, lbmodel.StatusDraining, ConnReady)}, []lbmodel.HealthStatus{lbmodel.StatusDraining}, "pick", a, ""},
		{"grpc.md §10 DEGRADED not in gRPC's default set (Envoy's has it)", []string{a},
			[]SessionEndpoint{ep(a, lbmodel.StatusDegraded, ConnReady)}, nil, "delegate", "", ""},
		{"A61 additional address matches the endpoint", []string{"[::1]:80"},
			[]SessionEndpoint{{Addresses: []string{a, "[::1]:80"}, Status: H, State: ConnReady}}, nil, "pick", "[::1]:80", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SessionPick(tc.cookie, tc.eps, tc.status)
			if got.Result != tc.result || got.Host != tc.host || got.Action != tc.action || got.Reason == "" {
				t.Errorf("got %+v, want %s %q %q", got, tc.result, tc.host, tc.action)
			}
		})
	}
}

// A75 "Reading the idle_timeout field in CDS".
func TestGRPCSessionIdleTimeout(t *testing.T) {
	const hpo = "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions"
	tests := []struct {
		name    string
		in      IdleTimeoutInput
		want    time.Duration
		wantErr bool
	}{
		{"upstream_config absent: default 1h", IdleTimeoutInput{}, time.Hour, false},
		{"other type: NACK", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: "type.googleapis.com/envoy.extensions.upstreams.http.generic.v3.GenericConnectionPoolProto"}, 0, true},
		{"common_http_protocol_options absent: default", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo}, time.Hour, false},
		{"idle_timeout unset: default", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true}, time.Hour, false},
		{"30.5s", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true, IdleTimeoutSet: true, Seconds: 30, Nanos: 5e8}, 30500 * time.Millisecond, false},
		{"0s accepted", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true, IdleTimeoutSet: true}, 0, false},
		{"negative seconds: NACK", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true, IdleTimeoutSet: true, Seconds: -1}, 0, true},
		{"seconds above 315576000000: NACK", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true, IdleTimeoutSet: true, Seconds: 315576000001}, 0, true},
		{"nanos 1e9: NACK", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true, IdleTimeoutSet: true, Nanos: 1e9}, 0, true},
		{"max seconds saturates", IdleTimeoutInput{UpstreamConfigSet: true, TypeURL: hpo, CommonHTTPOptionsSet: true, IdleTimeoutSet: true, Seconds: 315576000000}, time.Duration(math.MaxInt64), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SessionIdleTimeout(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("got %v, %v; want %v, err %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
