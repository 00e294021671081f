package route

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

const runtimeRoutes = `
name: rt
virtual_hosts:
- name: vh
  domains: [x]
  routes:
  - match:
      prefix: /
      runtime_fraction: {default_value: {numerator: 0, denominator: HUNDRED}, runtime_key: never}
    route: {cluster: never}
  - match:
      prefix: /
      runtime_fraction: {default_value: {numerator: 30, denominator: HUNDRED}, runtime_key: some}
    route: {cluster: some}
  - match: {prefix: /}
    route: {cluster: rest}
`

// TestRuntimeFraction: with no runtime loaded, featureEnabled takes the
// default fraction: random_value % denominator < numerator
// (RouteEntryImplBase::evaluateRuntimeMatch). A 0 numerator never
// matches, whatever the random value; a partial one needs --random-value,
// and without it the route is skipped with a note saying so.
func TestRuntimeFraction(t *testing.T) {
	cfg, err := config.LoadBytes("rt.yaml", []byte(runtimeRoutes), "")
	if err != nil {
		t.Fatal(err)
	}
	u := func(v uint64) *uint64 { return &v }
	for _, c := range []struct {
		random *uint64
		want   string
		note   string
	}{
		{nil, "rest", "the route never matches"},
		{nil, "rest", "this answer is the one for the other 70/100"},
		{u(0), "some", "random value 0 % 100 = 0, matches when below 30: true"},
		{u(129), "some", "random value 129 % 100 = 29"},
		{u(30), "rest", "random value 30 % 100 = 30, matches when below 30: false"},
	} {
		r, err := Build(cfg, Request{Authority: "x", Path: "/", RandomValue: c.random}, Options{}, Balancers{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cluster != c.want || !strings.Contains(strings.Join(r.Notes, "\n"), c.note) {
			t.Errorf("random %v: cluster %q, notes %q; want %q and a note with %q", c.random, r.Cluster, r.Notes, c.want, c.note)
		}
	}
}
