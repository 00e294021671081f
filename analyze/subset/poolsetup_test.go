package subset

import (
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
)

// TestPoolSetupAt: one PoolSetup answers every forced priority (and the
// unforced pick) exactly as a fresh SharesAt (Shares) does, including a
// fallback that hands what it cannot place to panic_mode_any.
func TestPoolSetupAt(t *testing.T) {
	src := unreachedPanic
	cfg, err := config.LoadBytes("x.yaml", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	cl := cfg.Cluster("web")
	for _, crit := range []map[string]any{nil, {"version": "v1"}, {"version": "v9"}} {
		setup, err := NewPoolSetup(cfg, cl, crit, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Shares(cfg, cl, crit, model.Options{})
		if got, _ := setup.At(nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%v unforced: At %+v, Shares %+v", crit, got, want)
		}
		for _, f := range []Forced{{0, false}, {1, false}, {0, true}, {1, true}, {0, false}} {
			want, _ := SharesAt(cfg, cl, crit, model.Options{}, f)
			got, _ := setup.At(&f)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v at %+v: At %+v, SharesAt %+v", crit, f, got, want)
			}
		}
	}
}

// unreachedPanic: two priorities, DEFAULT_SUBSET over a default subset
// whose P1 host is unhealthy, and panic_mode_any behind it.
const unreachedPanic = `name: web
connect_timeout: 1s
type: STATIC
lb_subset_config:
  subset_selectors: [{keys: [version]}]
  fallback_policy: DEFAULT_SUBSET
  default_subset: {stage: prod}
  panic_mode_any: true
load_assignment:
  cluster_name: web
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1, stage: prod}}}
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v2}}}
  - priority: 1
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.1.1, port_value: 80}}}
      metadata: {filter_metadata: {envoy.lb: {version: v1, stage: prod}}}
      health_status: DEGRADED
    - endpoint: {address: {socket_address: {address: 10.0.1.2, port_value: 80}}}
`
