package placement

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/lbmodel"
)

// explain's host shares for ring hash and Maglev (model.Input →
// lbmodel.ClusterShares) and the hash report's tables (Build) are the same
// numbers: each priority's whole load (healthy and degraded: the chosen
// priority's table is over its healthy hosts, all in panic) times the
// host's share of that table. Random clusters with locality weights,
// localities without a healthy host, degraded and unhealthy hosts.
func TestExplainAgreesWithHashTables(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 14))
	healths := []string{"HEALTHY", "HEALTHY", "UNKNOWN", "UNHEALTHY", "DEGRADED"}
	for k := range 80 {
		policy := []string{"RING_HASH", "MAGLEV"}[k%2]
		var b strings.Builder
		fmt.Fprintf(&b, "name: c\ntype: STATIC\nlb_policy: %s\n", policy)
		if policy == "RING_HASH" {
			fmt.Fprintf(&b, "ring_hash_lb_config: {minimum_ring_size: %d}\n", 16<<r.IntN(6))
		} else {
			b.WriteString("maglev_lb_config: {table_size: 307}\n")
		}
		if r.IntN(2) == 0 {
			b.WriteString("common_lb_config: {locality_weighted_lb_config: {}}\n")
		}
		b.WriteString("load_assignment:\n  cluster_name: c\n  endpoints:\n")
		for p := range 1 + r.IntN(2) {
			for l := range 1 + r.IntN(3) {
				fmt.Fprintf(&b, "  - priority: %d\n    locality: {zone: z%d}\n    load_balancing_weight: %d\n    lb_endpoints:\n", p, l, r.IntN(4))
				for h := range 1 + r.IntN(3) {
					fmt.Fprintf(&b, "    - endpoint: {address: {socket_address: {address: 10.%d.%d.%d, port_value: 80}}}\n      health_status: %s\n      load_balancing_weight: %d\n",
						p, l, h, healths[r.IntN(len(healths))], 1+r.IntN(3))
				}
			}
		}
		doc := b.String()
		cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
		if err != nil {
			t.Fatal(err)
		}
		cl := cfg.Clusters[0]
		m := model.Of(cfg, cl)
		s := model.Settings(cfg, cl)
		in, _, err := model.Input(cl, m, s, model.LocalOf(cfg, model.Options{}), model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sh, err := lbmodel.ClusterShares(in)
		if err != nil {
			t.Fatal(err)
		}
		setup, err := Build(m.Policy, m.Hosts, m, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{}
		for p, pl := range setup.Levels {
			load := float64(setup.Load.Levels[p].HealthyLoad+setup.Load.Levels[p].DegradedLoad) / 100
			for _, hs := range pl.Shares() {
				want[hs.Address] += load * hs.Share
			}
		}
		for i, h := range m.Hosts {
			if math.Abs(sh.Hosts[i]-want[h.Address]) > 1e-9 {
				t.Errorf("#%d %s %s: explain %.12f, hash tables %.12f\n%s", k, policy, h.Address, sh.Hosts[i], want[h.Address], doc)
			}
		}
	}
}
