package explain

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Random clusters for TestCrossCheckPolicies, written as YAML in the legacy
// or the typed spelling.

type xHost struct {
	addr     string
	prio     int
	loc      int // index into the priority's localities
	weight   uint32
	health   string // HEALTHY, UNHEALTHY, DEGRADED, UNKNOWN
	active   uint64
	age      time.Duration // 0: not given (past any window)
	reported uint32        // CSWRR --host-weight; 0: none
}

type xCluster struct {
	policy    string // ROUND_ROBIN LEAST_REQUEST RANDOM CSWRR WRR_LOCALITY
	typed     bool
	locality  bool
	choice    uint32 // least request choice_count (0: default)
	bias      float64
	biasSet   bool
	fullScan  bool
	window    time.Duration // slow start; 0: off
	aggr      float64
	minPct    float64
	hosts     []xHost
	locWeight [][]uint32 // per priority, per locality (0: none written)
}

func genCluster(r *rand.Rand, policy string) xCluster {
	c := xCluster{policy: policy, typed: r.IntN(2) == 0}
	switch policy {
	case "CSWRR":
		c.typed = true
	case "WRR_LOCALITY":
		c.typed, c.locality = true, true
	default:
		c.locality = r.IntN(2) == 0
	}
	if policy == "LEAST_REQUEST" {
		c.choice = uint32([]int{0, 2, 3}[r.IntN(3)])
		if r.IntN(3) == 0 {
			c.bias, c.biasSet = []float64{0, 0.5, 1, 2}[r.IntN(4)], true
		}
		c.fullScan = c.typed && r.IntN(3) == 0
	}
	if policy != "RANDOM" && r.IntN(2) == 0 {
		c.window = time.Duration(10+r.IntN(50)) * time.Second
		c.aggr = []float64{1, 1, 2, 0.5}[r.IntN(4)]
		c.minPct = []float64{10, 10, 30, 1}[r.IntN(4)]
	}
	equal := r.IntN(3) == 0
	healths := []string{"HEALTHY", "HEALTHY", "HEALTHY", "UNKNOWN", "UNHEALTHY", "DEGRADED"}
	down := r.IntN(4) == 0 // a priority with every host unhealthy
	np := 1 + r.IntN(3)
	c.locWeight = make([][]uint32, np)
	for p := range np {
		nl := 1 + r.IntN(3)
		for l := range nl {
			w := uint32(0)
			if r.IntN(5) != 0 {
				w = uint32(1 + r.IntN(5))
			}
			c.locWeight[p] = append(c.locWeight[p], w)
			for h := range 1 + r.IntN(4) {
				x := xHost{addr: fmt.Sprintf("10.%d.%d.%d:80", p, l, h), prio: p, loc: l, weight: 1, health: healths[r.IntN(len(healths))]}
				if down && p == 0 {
					x.health = "UNHEALTHY"
				}
				if !equal {
					x.weight = uint32(1 + r.IntN(4))
				}
				if policy == "LEAST_REQUEST" && r.IntN(2) == 0 {
					x.active = uint64(r.IntN(4))
				}
				if c.window > 0 && r.IntN(2) == 0 {
					x.age = time.Duration(r.IntN(int(c.window/time.Second)+5)) * time.Second
				}
				if (policy == "CSWRR" || policy == "WRR_LOCALITY") && r.IntN(3) == 0 {
					x.reported = uint32(1 + r.IntN(9))
				}
				c.hosts = append(c.hosts, x)
			}
		}
	}
	return c
}

// yaml writes the cluster in the legacy or the typed spelling.
func (c xCluster) yaml() string {
	var b strings.Builder
	b.WriteString("name: c\ntype: STATIC\n")
	slow := ""
	if c.window > 0 {
		slow = fmt.Sprintf("slow_start_config: {slow_start_window: %ds, aggression: {default_value: %g, runtime_key: a}, min_weight_percent: {value: %g}}", int(c.window/time.Second), c.aggr, c.minPct)
	}
	lr := ""
	if c.choice > 0 {
		lr += fmt.Sprintf("choice_count: %d, ", c.choice)
	}
	if c.biasSet {
		lr += fmt.Sprintf("active_request_bias: {default_value: %g, runtime_key: b}, ", c.bias)
	}
	if c.fullScan {
		lr += "selection_method: FULL_SCAN, "
	}
	const pkg = "type.googleapis.com/envoy.extensions.load_balancing_policies."
	typed := func(name, typ, body string) string {
		return fmt.Sprintf("load_balancing_policy:\n  policies:\n  - typed_extension_config:\n      name: %s\n      typed_config: {\"@type\": %s%s, %s}\n", name, pkg, typ, body)
	}
	loc := ""
	if c.locality {
		loc = "locality_lb_config: {locality_weighted_lb_config: {}}, "
	}
	switch {
	case c.policy == "WRR_LOCALITY":
		b.WriteString(typed("w", "wrr_locality.v3.WrrLocality", fmt.Sprintf("endpoint_picking_policy: {policies: [{typed_extension_config: {name: c, typed_config: {\"@type\": %sclient_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin, %s}}}]}", pkg, slow)))
	case c.policy == "CSWRR":
		b.WriteString(typed("c", "client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin", slow))
	case c.typed:
		switch c.policy {
		case "ROUND_ROBIN":
			b.WriteString(typed("r", "round_robin.v3.RoundRobin", loc+slow))
		case "LEAST_REQUEST":
			b.WriteString(typed("l", "least_request.v3.LeastRequest", loc+lr+slow))
		case "RANDOM":
			b.WriteString(typed("x", "random.v3.Random", loc))
		}
	default:
		fmt.Fprintf(&b, "lb_policy: %s\n", c.policy)
		if c.locality {
			b.WriteString("common_lb_config: {locality_weighted_lb_config: {}}\n")
		}
		switch {
		case c.policy == "ROUND_ROBIN" && slow != "":
			fmt.Fprintf(&b, "round_robin_lb_config: {%s}\n", slow)
		case c.policy == "LEAST_REQUEST":
			fmt.Fprintf(&b, "least_request_lb_config: {%s%s}\n", lr, slow)
		}
	}
	b.WriteString("load_assignment:\n  cluster_name: c\n  endpoints:\n")
	for p, locs := range c.locWeight {
		for l, w := range locs {
			fmt.Fprintf(&b, "  - priority: %d\n    locality: {zone: z%d}\n", p, l)
			if w > 0 {
				fmt.Fprintf(&b, "    load_balancing_weight: %d\n", w)
			}
			b.WriteString("    lb_endpoints:\n")
			for _, h := range c.hosts {
				if h.prio == p && h.loc == l {
					ip, port, _ := strings.Cut(h.addr, ":")
					fmt.Fprintf(&b, "    - endpoint: {address: {socket_address: {address: %s, port_value: %s}}}\n      health_status: %s\n      load_balancing_weight: %d\n", ip, port, h.health, h.weight)
				}
			}
		}
	}
	return b.String()
}
