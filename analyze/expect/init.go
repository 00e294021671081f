package expect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// InitCluster is what --init needs to know of a loaded cluster.
type InitCluster struct {
	Name string
	// Hashing: RING_HASH or MAGLEV.
	Hashing bool
	// Hosts are the cluster's host addresses in file order.
	Hosts []string
}

// InitClusters describes clusters for Init, in the order given.
func InitClusters(c *config.Config, clusters []*config.Cluster) []InitCluster {
	out := make([]InitCluster, 0, len(clusters))
	for _, cl := range clusters {
		m := model.Get(c, cl)
		ic := InitCluster{Name: m.Name, Hashing: model.IsHashPolicy(m.Policy)}
		for _, h := range m.Hosts {
			ic.Hosts = append(ic.Hosts, h.Address)
		}
		out = append(out, ic)
	}
	return out
}

// Init writes a TESTS file in lbctl's form holding today's values: one
// test per cluster, and for a ring hash / Maglev cluster with two hosts or
// more a second one removing its last host. Run against the same
// configuration, it passes.
func Init(clusters []InitCluster, rep Reports) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# lbctl test %s: today's values; edit the comparisons to what must hold.\ntests:\n", option.Init)
	if len(clusters) == 0 {
		b.Reset()
		b.WriteString("tests: []\n")
	}
	for _, ic := range clusters {
		r, err := rep.Cluster(ic.Name, Given{})
		if err != nil {
			return nil, err
		}
		cr := findCluster(r, ic.Name)
		if cr == nil {
			return nil, fmt.Errorf("cluster %q: no report", ic.Name)
		}
		fmt.Fprintf(&b, "- name: %s\n  cluster: %s\n  expect:\n", quote(ic.Name), quote(ic.Name))
		lv := levels(cr)
		if len(lv) > 0 {
			b.WriteString("    priority_load:\n")
			for i, l := range lv {
				fmt.Fprintf(&b, "      %d: %d\n", i, l.load)
			}
			b.WriteString("    panic:\n")
			for i, l := range lv {
				fmt.Fprintf(&b, "      %d: %t\n", i, l.panic)
			}
		}
		tp := cr.TotalPanic
		if cr.Aggregate != nil {
			tp = cr.Aggregate.TotalPanic
			if len(cr.Aggregate.ClusterLoad) > 0 {
				b.WriteString("    cluster_load:\n")
				for _, c := range cr.Aggregate.ClusterLoad {
					fmt.Fprintf(&b, "      %s: %d\n", quote(c.Cluster), c.Load)
				}
			}
		}
		fmt.Fprintf(&b, "    total_panic: %t\n", tp)
		writeBudgets(&b, lv)
		if m, ok := maxShare(cr.Hosts); ok {
			fmt.Fprintf(&b, "    max_host_share: %s\n", quote("<= "+num(m)))
		}
		if !ic.Hashing || len(ic.Hosts) < 2 || rep.Moved == nil {
			continue
		}
		last := ic.Hosts[len(ic.Hosts)-1]
		moved, err := rep.Moved(ic.Name, []string{last})
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "- name: %s\n  cluster: %s\n  given:\n    remove:\n    - %s\n  expect:\n    moved: %s\n",
			quote(ic.Name+" without "+last), quote(ic.Name), quote(last), quote("<= "+num(moved)))
	}
	return b.Bytes(), nil
}

func writeBudgets(b *bytes.Buffer, lv []level) {
	started := false
	for i, l := range lv {
		if l.budget == nil {
			continue
		}
		if !started {
			b.WriteString("    budget:\n")
			started = true
		}
		fmt.Fprintf(b, "      %d:\n", i)
		for _, kv := range []struct {
			k string
			v *int
		}{{"before_spill", l.budget.BeforeSpill}, {"before_panic", l.budget.BeforePanic}, {"before_total_panic", l.budget.BeforeTotalPanic}} {
			v := "null"
			if kv.v != nil {
				v = strconv.Itoa(*kv.v)
			}
			fmt.Fprintf(b, "        %s: %s\n", kv.k, v)
		}
	}
}

func maxShare(hs []traffic.HostReport) (float64, bool) {
	m, ok := 0.0, false
	for _, h := range hs {
		if h.Share != nil {
			m, ok = max(m, *h.Share), true
		}
	}
	return m, ok
}

// num writes v so that it reads back as the same float64.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// quote is a YAML double-quoted scalar (JSON's escapes are YAML's), so
// names from files are written safely.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
