package explain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
)

// The priority and aggregate tables of Envoy's load-balancing docs
// (priority levels, aggregate cluster), each row run through a real config:
// YAML → loader → model. Every level has 100 hosts, as the docs assume.
// Rows where the docs disagree with the code assert what Envoy's code
// computes (LoadBalancerBase::recalculatePerPriorityState,
// AggregateClusterLoadBalancer's priority context) and name the erratum.

// clusterYAML writes a STATIC cluster whose priorities each have hosts hosts,
// the first healthy[p] of priority p healthy and the rest UNHEALTHY.
func clusterYAML(name string, healthy []int, hosts int, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- name: %s\n  connect_timeout: 1s\n  type: STATIC\n  lb_policy: ROUND_ROBIN\n%s  load_assignment:\n    cluster_name: %s\n    endpoints:\n", name, extra, name)
	for p, h := range healthy {
		fmt.Fprintf(&b, "    - priority: %d\n      lb_endpoints:\n", p)
		for i := 0; i < hosts; i++ {
			fmt.Fprintf(&b, "      - endpoint: {address: {socket_address: {address: 10.%d.%d.%d, port_value: 80}}}\n", p, i/250, i%250+1)
			if i >= h {
				b.WriteString("        health_status: UNHEALTHY\n")
			}
		}
	}
	return b.String()
}

func loadYAML(t *testing.T, doc string) *config.Config {
	t.Helper()
	cfg, err := config.LoadBytes("seed.yaml", []byte(doc), "")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return cfg
}

func loads(pl lbmodel.PriorityLoad) []int {
	out := make([]int, len(pl.Levels))
	for i, l := range pl.Levels {
		out[i] = l.HealthyLoad + l.DegradedLoad
	}
	return out
}

func TestSeedPriorityTables(t *testing.T) {
	cases := []struct {
		name    string
		healthy []int // percent healthy per priority (of 100 hosts)
		want    []int
	}{
		// Seed 001, table 1: P1 100% healthy.
		{"seed001 t1 100%", []int{100, 100}, []int{100, 0}},
		{"seed001 t1 72%", []int{72, 100}, []int{100, 0}},
		{"seed001 t1 71%", []int{71, 100}, []int{99, 1}},
		{"seed001 t1 50%", []int{50, 100}, []int{70, 30}},
		{"seed001 t1 25%", []int{25, 100}, []int{35, 65}},
		{"seed001 t1 0%", []int{0, 100}, []int{0, 100}},
		// Table 2.
		{"seed001 t2 100/100", []int{100, 100}, []int{100, 0}},
		{"seed001 t2 72/72", []int{72, 72}, []int{100, 0}},
		{"seed001 t2 71/71", []int{71, 71}, []int{99, 1}},
		{"seed001 t2 50/50", []int{50, 50}, []int{70, 30}},
		{"seed001 t2 25/100", []int{25, 100}, []int{35, 65}},
		{"seed001 t2 25/25 erratum 6: total panic by host count", []int{25, 25}, []int{50, 50}},
		// Table 3.
		{"seed001 t3 100/100/100", []int{100, 100, 100}, []int{100, 0, 0}},
		{"seed001 t3 72/72/100", []int{72, 72, 100}, []int{100, 0, 0}},
		{"seed001 t3 71/71/100", []int{71, 71, 100}, []int{99, 1, 0}},
		{"seed001 t3 50/50/100", []int{50, 50, 100}, []int{70, 30, 0}},
		{"seed001 t3 25/100/100", []int{25, 100, 100}, []int{35, 65, 0}},
		{"seed001 t3 25/25/100 erratum 4: code 35/35/30, doc 25/25/50", []int{25, 25, 100}, []int{35, 35, 30}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := loadYAML(t, clusterYAML("c", c.healthy, 100, ""))
			m := model.Of(cfg, cfg.Cluster("c"))
			got := loads(lbmodel.ComputePriorityLoad(m.Levels(), m.PanicThreshold))
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("loads = %v, want %v", got, c.want)
			}
		})
	}
}

func TestSeedAggregateTable(t *testing.T) {
	cases := []struct {
		name                       string
		primary, secondary         []int
		wantPrimary, wantSecondary int
		wantLevels                 []int
	}{
		{"row1", []int{100, 100, 100}, []int{100, 100}, 100, 0, []int{100, 0, 0, 0, 0}},
		{"row2", []int{72, 100, 100}, []int{100, 100}, 100, 0, []int{100, 0, 0, 0, 0}},
		{"row3", []int{71, 1, 0}, []int{100, 100}, 100, 0, []int{99, 1, 0, 0, 0}},
		{"row4", []int{71, 0, 0}, []int{100, 100}, 99, 1, []int{99, 0, 0, 1, 0}},
		{"row5", []int{50, 0, 0}, []int{50, 0}, 70, 30, []int{70, 0, 0, 30, 0}},
		{"row6 and text example 1", []int{20, 20, 10}, []int{25, 25}, 70, 30, []int{28, 28, 14, 30, 0}},
		{"row7 erratum 1: total panic by host count 60/40, doc 50/50", []int{20, 0, 0}, []int{20, 0}, 60, 40, []int{20, 20, 20, 20, 20}},
		{"row8", []int{0, 0, 0}, []int{100, 0}, 0, 100, []int{0, 0, 0, 100, 0}},
		{"row9", []int{0, 0, 0}, []int{72, 0}, 0, 100, []int{0, 0, 0, 100, 0}},
	}
	const agg = `- name: agg
  connect_timeout: 1s
  lb_policy: CLUSTER_PROVIDED
  cluster_type:
    name: envoy.clusters.aggregate
    typed_config:
      "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
      clusters: [primary, secondary]
`
	for _, c := range cases {
		t.Run("seed000 "+c.name, func(t *testing.T) {
			cfg := loadYAML(t, agg+clusterYAML("primary", c.primary, 100, "")+clusterYAML("secondary", c.secondary, 100, ""))
			r, err := Build(cfg, []*config.Cluster{cfg.Cluster("agg")}, model.Options{})
			if err != nil {
				t.Fatal(err)
			}
			a := r.Clusters[0].Aggregate
			var levels []int
			for _, l := range a.Levels {
				levels = append(levels, l.HealthyLoad+l.DegradedLoad)
			}
			if fmt.Sprint(levels) != fmt.Sprint(c.wantLevels) {
				t.Errorf("linearized loads = %v, want %v", levels, c.wantLevels)
			}
			got := map[string]int{}
			for _, cl := range a.ClusterLoad {
				got[cl.Cluster] = cl.Load
			}
			if got["primary"] != c.wantPrimary || got["secondary"] != c.wantSecondary {
				t.Errorf("cluster loads = %v, want primary %d secondary %d", got, c.wantPrimary, c.wantSecondary)
			}
			sum := 0.0
			for _, h := range r.Clusters[0].Hosts {
				if h.Share != nil {
					sum += *h.Share
				}
			}
			if d := sum + r.Clusters[0].NoHostShare - 1; d > 1e-9 || d < -1e-9 {
				t.Errorf("host shares + no-host sum to %v, want 1", sum+r.Clusters[0].NoHostShare)
			}
		})
	}
}

// TestSeedAggregateLinearization is seed 000's linearization table: primary
// with 3 levels, secondary 2, tertiary 2 become levels 0..6 in list order.
func TestSeedAggregateLinearization(t *testing.T) {
	doc := `- name: agg
  connect_timeout: 1s
  lb_policy: CLUSTER_PROVIDED
  cluster_type:
    name: envoy.clusters.aggregate
    typed_config:
      "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
      clusters: [primary, secondary, tertiary]
` + clusterYAML("primary", []int{1, 1, 1}, 1, "") + clusterYAML("secondary", []int{1, 1}, 1, "") + clusterYAML("tertiary", []int{1, 1}, 1, "")
	cfg := loadYAML(t, doc)
	r, err := Build(cfg, []*config.Cluster{cfg.Cluster("agg")}, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"primary/0", "primary/1", "primary/2", "secondary/0", "secondary/1", "tertiary/0", "tertiary/1"}
	var got []string
	for _, l := range r.Clusters[0].Aggregate.Levels {
		got = append(got, fmt.Sprintf("%s/%d", l.Cluster, l.Priority))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("linearization = %v, want %v", got, want)
	}
}

// TestExplainAggregateChildren covers what Envoy does with missing,
// duplicated and nested children (priority.md §7.1).
func TestExplainAggregateChildren(t *testing.T) {
	doc := `- name: agg
  connect_timeout: 1s
  lb_policy: CLUSTER_PROVIDED
  cluster_type:
    name: envoy.clusters.aggregate
    typed_config:
      "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
      clusters: [missing, a, inner, a]
- name: inner
  connect_timeout: 1s
  lb_policy: CLUSTER_PROVIDED
  cluster_type:
    name: envoy.clusters.aggregate
    typed_config:
      "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
      clusters: [b]
` + clusterYAML("a", []int{5}, 10, "") + clusterYAML("b", []int{1}, 10, "")
	cfg := loadYAML(t, doc)
	r, err := Build(cfg, []*config.Cluster{cfg.Cluster("agg")}, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Clusters[0]
	// "a" is listed twice: its one level is linearized twice (health 70 each,
	// T = 100): 70 then 30, all of it to "a". "inner" and "missing" add nothing.
	var levels []string
	for _, l := range c.Aggregate.Levels {
		levels = append(levels, fmt.Sprintf("%s/%d=%d", l.Cluster, l.Priority, l.HealthyLoad))
	}
	if fmt.Sprint(levels) != "[a/0=70 a/0=30]" {
		t.Errorf("levels = %v", levels)
	}
	notes := strings.Join(c.Notes, "\n")
	for _, want := range []string{`"missing" is not defined`, `"a" is listed more than once`, `"inner" is itself an aggregate`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
