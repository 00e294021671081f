package watch

import (
	"fmt"
	"testing"

	"github.com/lbctl/lbctl/analyze/traffic"
)

func f(v float64) *float64 { return &v }

func TestChanges(t *testing.T) {
	old := &traffic.Report{Clusters: []traffic.ClusterReport{
		{Name: "agg", Priorities: []traffic.PriorityReport{{Priority: 0, HealthyLoad: 100}, {Priority: 2}},
			Hosts: []traffic.HostReport{{Cluster: "a", Address: "10.0.0.1:80", Health: "HEALTHY", Share: f(0.5)},
				{Cluster: "b", Address: "10.0.0.1:80", Health: "HEALTHY", Share: f(0.5)}}},
		{Name: "gone", LbPolicy: "ROUND_ROBIN"},
	}}
	cur := &traffic.Report{Clusters: []traffic.ClusterReport{
		{Name: "new", LbPolicy: "MAGLEV"},
		// The same address in two children is two hosts; b's lost its
		// share computation (nil); a's moved by float noise only.
		{Name: "agg", Priorities: []traffic.PriorityReport{{Priority: 0, HealthyLoad: 70}, {Priority: 1, HealthyLoad: 30}},
			Hosts: []traffic.HostReport{{Cluster: "a", Address: "10.0.0.1:80", Health: "HEALTHY", Share: f(0.5 + 1e-15)},
				{Cluster: "b", Address: "10.0.0.1:80", Health: "DEGRADED", Share: nil}}},
	}}
	var got []string
	for _, c := range Changes(old, cur) {
		p := ""
		if c.Priority != nil {
			p = fmt.Sprintf(" P%d", *c.Priority)
		}
		got = append(got, fmt.Sprintf("%s %s%s %s/%s %v→%v", c.Cluster, c.Change, p, c.Child, c.Host, c.Old, c.New))
	}
	want := []string{
		"new added / <nil>→MAGLEV",
		"agg load P0 / 100→70",
		"agg load P1 / <nil>→30",
		"agg load P2 / 0→<nil>",
		"agg health b/10.0.0.1:80 HEALTHY→DEGRADED",
		"agg share b/10.0.0.1:80 0.5→<nil>",
		"gone removed / ROUND_ROBIN→<nil>",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changes\n%q\nwant\n%q", got, want)
	}
}
