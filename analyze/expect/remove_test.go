package expect

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// given.remove takes its hosts out of the cluster every expectation reads,
// not only `moved`: the fixture's values are derived by hand in its comments.
func TestRemoveFeedsEveryExpectation(t *testing.T) {
	_, rep := reportsOf(t, "tests/remove-config.yaml")
	res, err := Run([]*File{parseFile(t, "../../fixtures/tests/remove.yaml")}, rep)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Passed != 5 || res.Summary.Failed != 0 {
		b, _ := json.Marshal(res)
		t.Fatalf("want 5 passed: %s", b)
	}
}

// The unremoved cluster's figures no longer hold once hosts are gone.
func TestRemoveChangesFigures(t *testing.T) {
	_, rep := reportsOf(t, "tests/remove-config.yaml")
	f, err := Parse("t.yaml", []byte(`tests:
- name: x
  cluster: spill
  given: {remove: ["10.0.0.1:80", "10.0.0.2:80"]}
  expect: {priority_load: {0: 100}, host_share: {"10.0.0.3:80": 0.2}}
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run([]*File{f}, rep)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Tests[0].Failures)
	want := `[{"expect":"priority_load.0","want":"100","got":84,"at":"t.yaml:5:31"},` +
		`{"expect":"host_share.10.0.0.3:80","want":"0.2","got":0.28,"at":"t.yaml:5:65"}]`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

// A removed host that the cluster does not hold is an input error at its
// place with the nearest host; a removed host is gone from host_share.
func TestRemoveNames(t *testing.T) {
	_, rep := reportsOf(t, "tests/remove-config.yaml")
	cases := map[string]string{
		"tests:\n- name: x\n  cluster: spill\n  given: {remove: [\"10.0.0.9:80\"]}\n  expect: {total_panic: false}\n":               `t.yaml:4:20: no host "10.0.0.9:80" in cluster "spill"; the closest host is 10.0.0.1:80`,
		"tests:\n- name: x\n  cluster: spill\n  given: {remove: [\"10.0.0.1:80\"]}\n  expect: {host_share: {\"10.0.0.1:80\": 0}}\n": `t.yaml:5:25: host_share.10.0.0.1:80: no host "10.0.0.1:80"; the closest host is 10.0.0.2:80`,
	}
	for src, want := range cases {
		f, err := Parse("t.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run([]*File{f}, rep); err == nil || err.Error() != want {
			t.Errorf("%q:\ngot  %v\nwant %s", src, err, want)
		}
	}
}

// nestedAggregate: outer's children are plain a and aggregate inner, whose
// child b AggregateInputs never expands under outer.
const nestedAggregate = `static_resources:
  clusters:
  - name: outer
    connect_timeout: 1s
    lb_policy: CLUSTER_PROVIDED
    cluster_type:
      name: envoy.clusters.aggregate
      typed_config: {"@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig, clusters: [a, inner]}
  - name: inner
    connect_timeout: 1s
    lb_policy: CLUSTER_PROVIDED
    cluster_type:
      name: envoy.clusters.aggregate
      typed_config: {"@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig, clusters: [b, outer]}
  - name: a
    connect_timeout: 1s
    type: STATIC
    load_assignment:
      cluster_name: a
      endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}]}]
  - name: b
    connect_timeout: 1s
    type: STATIC
    load_assignment:
      cluster_name: b
      endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.1.1, port_value: 80}}}}]}]
`

// TestRemoveNested: a direct child's host is removable from an aggregate; a
// nested aggregate's host (b's, under inner) is not, and says so.
func TestRemoveNested(t *testing.T) {
	cfg, err := config.LoadBytes("c.yaml", []byte(nestedAggregate), "")
	if err != nil {
		t.Fatal(err)
	}
	rep := reportsFor(cfg)
	if got := strings.Join(rep.Hosts("outer"), " "); got != "10.0.0.1:80" {
		t.Errorf("outer's removable hosts %q, want 10.0.0.1:80", got)
	}
	src := "tests:\n- name: x\n  cluster: outer\n  given: {remove: [\"10.0.1.1:80\"]}\n  expect: {total_panic: false}\n"
	f, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const want = `t.yaml:4:20: host "10.0.1.1:80" is in a nested aggregate cluster of "outer"; given.remove removes only the hosts of the cluster and of its direct children, not a nested aggregate's`
	if _, err := Run([]*File{f}, rep); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}
