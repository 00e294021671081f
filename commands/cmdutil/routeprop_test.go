package cmdutil

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/subset"
)

// genHost is one generated endpoint.
type genHost struct {
	addr     string
	priority int
	weight   int
	health   string
	version  string
}

func (h genHost) yaml(meta bool) string {
	s := fmt.Sprintf("      - endpoint: {address: {socket_address: {address: %s, port_value: 80}}}\n        load_balancing_weight: %d\n        health_status: %s\n", h.addr, h.weight, h.health)
	if meta {
		s += fmt.Sprintf("        metadata: {filter_metadata: {envoy.lb: {version: %s}}}\n", h.version)
	}
	return s
}

// clusterYAML is a STATIC cluster of hosts (grouped by priority in order);
// extra is appended to the cluster's fields.
func clusterYAML(name, policy, extra string, hosts []genHost, meta bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- name: %s\n  type: STATIC\n  lb_policy: %s\n%s  load_assignment:\n    cluster_name: %s\n    endpoints:\n", name, policy, extra, name)
	for p := 0; p < 3; p++ {
		var in []genHost
		for _, h := range hosts {
			if h.priority == p {
				in = append(in, h)
			}
		}
		if len(in) == 0 {
			continue
		}
		fmt.Fprintf(&b, "    - priority: %d\n      lb_endpoints:\n", p)
		for _, h := range in {
			b.WriteString(h.yaml(meta))
		}
	}
	return b.String()
}

func genHosts(r *rand.Rand, prefix string, n int) []genHost {
	healths := []string{"HEALTHY", "HEALTHY", "HEALTHY", "UNHEALTHY", "DEGRADED"}
	var out []genHost
	maxP := r.Intn(3)
	for i := 0; i < n; i++ {
		out = append(out, genHost{addr: fmt.Sprintf("%s.%d", prefix, i+1), priority: r.Intn(maxP + 1), weight: 1 + r.Intn(4),
			health: healths[r.Intn(len(healths))], version: []string{"v1", "v2", "v3"}[r.Intn(3)]})
	}
	// Contiguous priorities: hosts are listed priority by priority.
	slices.SortStableFunc(out, func(a, b genHost) int { return a.priority - b.priority })
	return out
}

type genRoute struct {
	cfgText                  string
	sub                      []genHost
	subPolicy                string
	crit                     string // "" (no metadata_match) or a version
	wRing, wSub, wAgg, wNone int
	// wAggSub weighs aggsub, an aggregate over [sub, c1]; panicAny is
	// sub's panic_mode_any.
	wAggSub  int
	panicAny bool
}

func genConfig(r *rand.Rand) genRoute {
	g := genRoute{crit: []string{"", "v1", "v2", "v3", "v9"}[r.Intn(5)], subPolicy: []string{"ROUND_ROBIN", "LEAST_REQUEST", "RANDOM", "RING_HASH"}[r.Intn(4)]}
	g.wRing, g.wSub, g.wAgg = 1+r.Intn(100), 1+r.Intn(100), 1+r.Intn(100)
	ring := genHosts(r, "10.1.0", 1+r.Intn(5))
	g.sub = genHosts(r, "10.2.0", 1+r.Intn(7))
	c1, c2 := genHosts(r, "10.3.0", 1+r.Intn(4)), genHosts(r, "10.4.0", 1+r.Intn(4))
	fallback := []string{"ANY_ENDPOINT", "DEFAULT_SUBSET", "NO_FALLBACK"}[r.Intn(3)]
	def := []string{"v1", "v2", "v3"}[r.Intn(3)]
	g.panicAny = r.Intn(2) == 0
	subCfg := fmt.Sprintf("  lb_subset_config:\n    fallback_policy: %s\n    default_subset: {version: %s}\n    panic_mode_any: %v\n    subset_selectors: [{keys: [version]}]\n",
		fallback, def, g.panicAny)
	var b strings.Builder
	b.WriteString(clusterYAML("ring", "RING_HASH", "", ring, false))
	b.WriteString(clusterYAML("sub", g.subPolicy, subCfg, g.sub, true))
	b.WriteString(clusterYAML("c1", "ROUND_ROBIN", "", c1, false))
	b.WriteString(clusterYAML("c2", "LEAST_REQUEST", "", c2, false))
	b.WriteString("- name: agg\n  connect_timeout: 1s\n  lb_policy: CLUSTER_PROVIDED\n  cluster_type:\n    name: envoy.clusters.aggregate\n    typed_config:\n      '@type': type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig\n      clusters: [c1, c2]\n")
	b.WriteString("- name: aggsub\n  connect_timeout: 1s\n  lb_policy: CLUSTER_PROVIDED\n  cluster_type:\n    name: envoy.clusters.aggregate\n    typed_config:\n      '@type': type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig\n      clusters: [sub, c1]\n")
	b.WriteString("---\nname: r\nvirtual_hosts:\n- name: vh\n  domains: [x]\n  routes:\n  - name: split\n    match: {prefix: /}\n    route:\n      hash_policy: [{header: {header_name: x-user}}]\n      weighted_clusters:\n        clusters:\n")
	fmt.Fprintf(&b, "        - {name: ring, weight: %d}\n", g.wRing)
	if g.crit != "" {
		fmt.Fprintf(&b, "        - {name: sub, weight: %d, metadata_match: {filter_metadata: {envoy.lb: {version: %s}}}}\n", g.wSub, g.crit)
	} else {
		fmt.Fprintf(&b, "        - {name: sub, weight: %d}\n", g.wSub)
	}
	fmt.Fprintf(&b, "        - {name: agg, weight: %d}\n", g.wAgg)
	g.wAggSub = 1 + r.Intn(100) // drawn last: earlier draws stay as they were
	if g.crit != "" {
		fmt.Fprintf(&b, "        - {name: aggsub, weight: %d, metadata_match: {filter_metadata: {envoy.lb: {version: %s}}}}\n", g.wAggSub, g.crit)
	} else {
		fmt.Fprintf(&b, "        - {name: aggsub, weight: %d}\n", g.wAggSub)
	}
	g.cfgText = b.String()
	return g
}

// poolCluster is the subset's pool as a plain cluster of its own: the
// subset's child load balancer runs over exactly those hosts.
func (g genRoute) poolCluster(t *testing.T, pool []string) *config.Config {
	t.Helper()
	var hosts []genHost
	for _, h := range g.sub {
		if slices.Contains(pool, h.addr+":80") {
			hosts = append(hosts, h)
		}
	}
	cfg, err := config.LoadBytes("pool.yaml", []byte(clusterYAML("pool", g.subPolicy, "", hosts, false)), "")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestRouteSharesProperty (issue 27, acceptance 2): over generated route
// configurations whose weighted clusters reach a ring hash cluster, a
// subset cluster (host weights, several priorities, unhealthy and
// degraded hosts, every fallback policy) and an aggregate cluster, each
// host's route share is its weighted cluster's share times explain's
// share of the host in that cluster; for the subset cluster, explain's
// share in a plain cluster made of the subset LB's pool (what the subset
// report picks); the shares and the no-host rest sum to 1. With a hash
// header, the ring hash cluster's and a ring hash subset's one host is
// the host lbctl hash finds.
func TestRouteSharesProperty(t *testing.T) {
	// Coverage: how many subset pools, fallbacks, no-host answers and
	// hash picks the generated cases exercised.
	seen := map[string]int{}
	for seed := int64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewSource(seed))
		g := genConfig(r)
		cfg, err := config.LoadBytes("gen.yaml", []byte(g.cfgText), "")
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, g.cfgText)
		}
		lb := RouteBalancers(cfg, model.Options{})
		total := float64(g.wRing + g.wSub + g.wAgg + g.wAggSub)
		want := map[string]float64{}
		noHost := 0.0
		add := func(cluster string, w float64, hs route.ClusterHosts, rest float64) {
			for _, h := range hs.Hosts {
				c := h.Cluster // an aggregate's hosts name their child
				if c == "" || c == "pool" {
					c = cluster
				}
				want[c+"/"+h.Address] += w * h.Share
			}
			noHost += w * rest
		}
		restOf := func(hs route.ClusterHosts) float64 {
			s := 0.0
			for _, h := range hs.Hosts {
				s += h.Share
			}
			return 1 - s
		}
		for _, name := range []string{"ring", "agg"} {
			hs, err := lb.Hosts(name)
			if err != nil {
				t.Fatal(err)
			}
			w := float64(g.wRing) / total
			if name == "agg" {
				w = float64(g.wAgg) / total
			}
			add(name, w, hs, restOf(hs))
		}
		var crit map[string]any
		if g.crit != "" {
			crit = map[string]any{"version": g.crit}
		}
		rep, _, err := subset.Build(cfg, cfg.Cluster("sub"), subset.SubsetOptions{Match: crit})
		if err != nil || rep == nil {
			t.Fatalf("seed %d: subset: %v", seed, err)
		}
		wSub := float64(g.wSub) / total
		var pool *config.Config
		seen["source "+rep.Result.Source+" "+rep.Result.FallbackPolicy]++
		if len(rep.Result.Receiving) == 0 {
			noHost += wSub
		} else {
			pool = g.poolCluster(t, rep.Result.Hosts)
			hs, err := RouteBalancers(pool, model.Options{}).Hosts("pool")
			if err != nil {
				t.Fatal(err)
			}
			add("sub", wSub, hs, restOf(hs))
		}
		g.addAggSub(t, cfg, rep, pool, float64(g.wAggSub)/total, add)

		rep2, err := route.Build(cfg, route.Request{Authority: "x", Path: "/"}, route.Options{}, lb)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		sum := 0.0
		for _, h := range rep2.Hosts {
			got[h.Cluster+"/"+h.Address] += h.Share
			sum += h.Share
		}
		if math.Abs(sum+noHost-1) > 1e-9 {
			t.Errorf("seed %d: host shares sum to %.12g and %.12g find no host: not 1", seed, sum, noHost)
		}
		for k, w := range want {
			if math.Abs(got[k]-w) > 1e-9 {
				t.Errorf("seed %d: %s: route share %.12g, want %.12g (weighted share × explain's)\n%s", seed, k, got[k], w, g.cfgText)
			}
		}
		for k, v := range got {
			if _, ok := want[k]; !ok && v != 0 {
				t.Errorf("seed %d: %s: route share %.12g, want none", seed, k, v)
			}
		}

		// One request with a hash: the hashing clusters give their one host.
		user := fmt.Sprintf("user-%d", seed)
		req := route.Request{Authority: "x", Path: "/", Headers: [][2]string{{"x-user", user}}}
		rep3, err := route.Build(cfg, req, route.Options{}, lb)
		if err != nil {
			t.Fatal(err)
		}
		check := func(c *config.Config, cluster, label string) {
			hr, err := hashing.Build(c, c.Cluster(cluster), hashing.HashOptions{Keys: []string{user}})
			if err != nil {
				t.Fatal(err)
			}
			l := hr.Lookups[0]
			var hosts []string
			for _, h := range rep3.Hosts {
				// sub is reached directly and through aggsub: one host.
				if h.Cluster == label && !slices.Contains(hosts, h.Address) {
					hosts = append(hosts, h.Address)
				}
			}
			if l.Host == nil {
				return // no host: the shares stand (checked above)
			}
			seen["hash "+label]++
			if len(hosts) != 1 || hosts[0] != *l.Host {
				t.Errorf("seed %d: %s hashes %q to %v, lbctl hash says %s", seed, label, user, hosts, *l.Host)
			}
		}
		check(cfg, "ring", "ring")
		if pool != nil && g.subPolicy == "RING_HASH" && !rep.Result.NoHealthyHosts {
			check(pool, "pool", "sub")
		}
	}
	for _, k := range []string{"source subset ", "source fallback ANY_ENDPOINT", "source fallback DEFAULT_SUBSET", "source no_host NO_FALLBACK", "hash ring", "hash sub"} {
		if seen[k] < 5 {
			t.Errorf("only %d generated cases of %q: %v", seen[k], k, seen)
		}
	}
}
