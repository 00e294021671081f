package lint

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// aggDoc is one aggregate cluster document listing kids.
func aggDoc(name string, kids ...string) string {
	return fmt.Sprintf("---\nname: %s\nconnect_timeout: 1s\nlb_policy: CLUSTER_PROVIDED\ncluster_type:\n  name: envoy.clusters.aggregate\n  typed_config:\n"+
		"    \"@type\": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig\n    clusters: [%s]\n", name, strings.Join(kids, ", "))
}

const leafDoc = "---\nname: leaf\ntype: STATIC\nload_assignment: {cluster_name: leaf, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}]}]}\n"

// lintTimed lints src for both targets and fails if it takes over limit.
func lintTimed(t *testing.T, src string, limit time.Duration) []Finding {
	t.Helper()
	start := time.Now()
	fs := lintString(t, src, Options{Targets: []Target{TargetEnvoy, TargetGRPC}})
	limit *= raceSlowdown
	if d := time.Since(start); d > limit {
		t.Fatalf("lint took %v, want under %v", d, limit)
	}
	return fs
}

// Issue 19: the rule walked every path, a 30-level diamond DAG (2^30 paths)
// never finished. It has no cycle.
func TestAggregateCycleDiamondIsLinear(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		kids := []string{fmt.Sprintf("a%d", i+1), fmt.Sprintf("b%d", i+1)}
		if i == 29 {
			kids = []string{"leaf"}
		}
		b.WriteString(aggDoc(fmt.Sprintf("a%d", i), kids...))
		b.WriteString(aggDoc(fmt.Sprintf("b%d", i), kids...))
	}
	b.WriteString(leafDoc)
	for _, f := range lintTimed(t, b.String(), 3*time.Second) {
		if f.Rule == "LB1202" {
			t.Errorf("no cycle, got %s", f.Message)
		}
	}
}

// A 10,000-cluster chain closed into one cycle: one finding at the first
// aggregate's entry, naming the whole cycle.
func TestAggregateCycleLongChain(t *testing.T) {
	const n = 10000
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(aggDoc(fmt.Sprintf("c%d", i), fmt.Sprintf("c%d", (i+1)%n), "leaf"))
	}
	b.WriteString(leafDoc)
	var got []Finding
	for _, f := range lintTimed(t, b.String(), 10*time.Second) {
		if f.Rule == "LB1202" {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d LB1202 findings, want 1", len(got))
	}
	// c0's document starts at line 2; its clusters list is line 9, c1 at
	// column 16. The 10,000-name cycle is capped like any long list in a
	// message (engine.go maxList).
	if got[0].Pos.Line != 9 || got[0].Pos.Col != 16 || !strings.HasPrefix(got[0].Message, "aggregate clusters form a cycle: c0 -> c1 -> c2 -> ") ||
		!strings.Contains(got[0].Message, "more bytes)") || len(got[0].Message) > 5000 {
		t.Fatalf("got %s at %s", got[0].Message[:80], got[0].Pos)
	}
}

// Two separate cycles are two findings; the shortest cycle through the
// first aggregate is the one named.
func TestAggregateCycleShortest(t *testing.T) {
	src := aggDoc("a", "b", "c") + aggDoc("b", "c") + aggDoc("c", "a") + aggDoc("x", "y") + aggDoc("y", "x")
	var msgs []string
	for _, f := range lintString(t, src, Options{}) {
		if f.Rule == "LB1202" {
			msgs = append(msgs, f.Message)
		}
	}
	want := []string{"aggregate clusters form a cycle: a -> c -> a", "aggregate clusters form a cycle: x -> y -> x"}
	if strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", msgs, want)
	}
}
