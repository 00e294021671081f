package explain

// An independent reference for the host-level layer of every modelled
// policy, written from Envoy's code without lbmodel: for random clusters
// (priorities, localities with and without weights, host weights, health,
// active requests, slow-start ages, client-side weights) it derives each
// host's long-run share from the priority loads explain reports, then
// ZoneAwareLoadBalancerBase::hostSourceToUse (panic: all hosts; locality
// weighting: the locality EDF; else the healthy or degraded hosts), then
// the policy's pick, by exact enumeration: EDF cycles are replayed pick by
// pick in rational arithmetic, LeastRequest's choice_count draws and
// RandomLoadBalancer's single random number are enumerated over every
// value. explain -o json must agree to 1e-9.

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
)

func (c xCluster) options() model.Options {
	var o model.Options
	for _, h := range c.hosts {
		if h.active > 0 {
			if o.ActiveRequests == nil {
				o.ActiveRequests = map[string]uint64{}
			}
			o.ActiveRequests[h.addr] = h.active
		}
		if h.age > 0 || (c.window > 0 && h.age == 0 && h.addr == c.hosts[0].addr) {
			if o.HostAges == nil {
				o.HostAges = map[string]time.Duration{}
			}
			o.HostAges[h.addr] = h.age
		}
		if h.reported > 0 {
			if o.HostWeights == nil {
				o.HostWeights = map[string]uint32{}
			}
			o.HostWeights[h.addr] = h.reported
		}
	}
	return o
}

func healthyish(h string) bool { return h == "HEALTHY" || h == "UNKNOWN" }

// reference computes each host's share.
func (c xCluster) reference(t *testing.T, cr traffic.ClusterReport, opt model.Options) []float64 {
	n := len(c.hosts)
	out := make([]float64, n)
	// Effective host weights of the policy (before per-source decisions).
	weight := make([]float64, n)
	for i, h := range c.hosts {
		weight[i] = float64(max(1, h.weight))
	}
	if c.policy == "CSWRR" || c.policy == "WRR_LOCALITY" {
		// updateWeightsOnHosts per priority: valid reports, others the
		// median (index size/2 after nth_element), default 1.
		for p := range c.locWeight {
			var valid []uint32
			for _, h := range c.hosts {
				if h.prio == p && h.reported > 0 {
					valid = append(valid, h.reported)
				}
			}
			def := uint32(1)
			if len(valid) > 0 {
				slices.Sort(valid)
				def = valid[len(valid)/2]
			}
			for i, h := range c.hosts {
				if h.prio == p {
					weight[i] = float64(max(1, def))
					if h.reported > 0 {
						weight[i] = float64(max(1, h.reported))
					}
				}
			}
		}
	}
	// Slow start: one flag for the load balancer (a healthy host added at
	// most a window ago), factors on healthy hosts inside the window.
	ageOf := func(i int) (time.Duration, bool) {
		a, ok := opt.HostAges[c.hosts[i].addr]
		return a, ok
	}
	inSlow := false
	factor := make([]float64, n)
	for i, h := range c.hosts {
		factor[i] = 1
		a, ok := ageOf(i)
		if c.window == 0 || !ok || !healthyish(h.health) {
			continue
		}
		if a.Milliseconds() <= c.window.Milliseconds() {
			inSlow = true
		}
		if a < c.window {
			tf := float64(max(1, a.Milliseconds())) / float64(c.window.Milliseconds())
			if c.aggr != 1 {
				tf = math.Pow(tf, 1/c.aggr)
			}
			factor[i] = max(tf, c.minPct/100)
		}
	}
	// pick returns the shares of src given the random value r (RANDOM
	// only uses r; others ignore it).
	pick := func(src []int, r uint64) []float64 {
		sh := make([]float64, len(src))
		if len(src) == 0 {
			return sh
		}
		ws := make([]float64, len(src))
		equal := true
		for k, i := range src {
			ws[k] = weight[i]
			equal = equal && ws[k] == ws[0]
		}
		switch c.policy {
		case "RANDOM":
			sh[int(r%uint64(len(src)))] = 1
			return sh
		case "LEAST_REQUEST":
			bias := 1.0
			if c.biasSet {
				bias = c.bias
			}
			if len(src) > 1 && (!equal || c.biasSet || inSlow) {
				for k, i := range src {
					ws[k] = ws[k] / math.Pow(float64(c.hosts[i].active+1), bias)
					if inSlow {
						ws[k] *= factor[i]
					}
				}
				return edfShares(ws)
			}
			if c.fullScan {
				// unweightedHostPickFullScan: the minimum, reservoir
				// sampling among ties.
				least := []int{}
				for k, i := range src {
					a := c.hosts[i].active
					if len(least) == 0 || a < c.hosts[src[least[0]]].active {
						least = []int{k}
					} else if a == c.hosts[src[least[0]]].active {
						least = append(least, k)
					}
				}
				for _, k := range least {
					sh[k] = 1 / float64(len(least))
				}
				return sh
			}
			// unweightedHostPickNChoices: every sequence of draws.
			kc := int(max(2, c.choice))
			seq := make([]int, kc)
			total := 0
			var rec func(d int)
			rec = func(d int) {
				if d == kc {
					best := seq[0]
					for _, s := range seq[1:] {
						if c.hosts[src[s]].active < c.hosts[src[best]].active {
							best = s
						}
					}
					sh[best]++
					total++
					return
				}
				for s := range src {
					seq[d] = s
					rec(d + 1)
				}
			}
			rec(0)
			for k := range sh {
				sh[k] /= float64(total)
			}
			return sh
		}
		// ROUND_ROBIN, CSWRR: rotation when equal, else the EDF.
		if len(src) > 1 && inSlow {
			for k, i := range src {
				ws[k] *= factor[i]
			}
			return edfShares(ws)
		}
		if equal {
			for k := range sh {
				sh[k] = 1 / float64(len(src))
			}
			return sh
		}
		return edfShares(ws)
	}
	opf := 1.4
	// source returns the host sources (with weights) for a request that
	// chose priority p with the given availability.
	type part struct {
		src []int
		w   float64
	}
	source := func(p int, degraded bool) []part {
		var all, ok []int
		for i, h := range c.hosts {
			if h.prio != p {
				continue
			}
			all = append(all, i)
			if (!degraded && healthyish(h.health)) || (degraded && h.health == "DEGRADED") {
				ok = append(ok, i)
			}
		}
		if cr.Priorities[p].Panic {
			return []part{{all, 1}}
		}
		if c.locality {
			nl := len(c.locWeight[p])
			ew := make([]float64, nl)
			var srcs [][]int
			sum := 0.0
			for l := range nl {
				var tot, el []int
				for _, i := range all {
					if c.hosts[i].loc == l {
						tot = append(tot, i)
						if slices.Contains(ok, i) {
							el = append(el, i)
						}
					}
				}
				srcs = append(srcs, el)
				ew[l] = float64(c.locWeight[p][l]) * min(1, opf*float64(len(el))/float64(len(tot)))
				sum += ew[l]
			}
			if sum > 0 {
				var parts []part
				for l, s := range edfShares(ew) {
					parts = append(parts, part{srcs[l], s})
				}
				return parts
			}
		}
		return []part{{ok, 1}}
	}
	add := func(p int, degraded bool, w float64, rs []uint64) {
		for _, pt := range source(p, degraded) {
			for _, r := range rs {
				for k, s := range pick(pt.src, r) {
					out[pt.src[k]] += w * pt.w * s / float64(len(rs))
				}
			}
		}
	}
	// choosePriority: h = r%100+1 against cumulative healthy then
	// degraded loads. For RANDOM the same r picks the host, so enumerate
	// r over a full period of every modulus involved.
	if c.policy == "RANDOM" {
		period := uint64(100)
		for p := range cr.Priorities {
			for _, deg := range []bool{false, true} {
				for _, pt := range source(p, deg) {
					if s := uint64(len(pt.src)); s > 0 {
						period = period / gcd64(period, s) * s
					}
				}
			}
		}
		buckets := map[[2]int][]uint64{}
		for r := range period {
			h := int(r%100) + 1
			cum := 0
			done := false
			for _, deg := range []bool{false, true} {
				for p, pr := range cr.Priorities {
					l := pr.HealthyLoad
					if deg {
						l = pr.DegradedLoad
					}
					cum += l
					if !done && h <= cum {
						k := [2]int{p, 0}
						if deg {
							k[1] = 1
						}
						buckets[k] = append(buckets[k], r)
						done = true
					}
				}
			}
		}
		for k, rs := range buckets {
			add(k[0], k[1] == 1, float64(len(rs))/float64(period), rs)
		}
		return out
	}
	for p, pr := range cr.Priorities {
		add(p, false, float64(pr.HealthyLoad)/100, []uint64{0})
		add(p, true, float64(pr.DegradedLoad)/100, []uint64{0})
	}
	return out
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// edfShares replays an EDF scheduler (each entry's next deadline is its
// last plus 1/weight, ties to the earlier-inserted entry) and counts picks.
// With weights scaled to integers the schedule repeats every Σw picks, so
// one period gives the exact long-run shares; other weights are replayed
// for 200000 picks, enough for 1e-9 only through the rational check below.
func edfShares(ws []float64) []float64 {
	out := make([]float64, len(ws))
	ints := make([]int64, len(ws))
	var total int64
	integral := true
	for i, w := range ws {
		if w < 0 || w != math.Trunc(w) || w > 1e6 {
			integral = false
			break
		}
		ints[i] = int64(w)
		total += ints[i]
	}
	if !integral || total == 0 || total > 200000 {
		// Non-integral weights: the long-run fraction of an EDF is w/Σw.
		sum := 0.0
		for _, w := range ws {
			sum += w
		}
		for i, w := range ws {
			if sum > 0 {
				out[i] = w / sum
			}
		}
		return out
	}
	next := make([]*big.Rat, len(ws))
	for i, w := range ints {
		if w > 0 {
			next[i] = big.NewRat(1, w)
		}
	}
	count := make([]int64, len(ws))
	for range total {
		best := -1
		for i, d := range next {
			if d != nil && (best < 0 || d.Cmp(next[best]) < 0) {
				best = i
			}
		}
		count[best]++
		next[best] = new(big.Rat).Add(next[best], big.NewRat(1, ints[best]))
	}
	for i := range out {
		out[i] = float64(count[i]) / float64(total)
	}
	return out
}

func TestCrossCheckPolicies(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2026))
	seen := map[string]int{} // the cases the generator must have covered
	for _, policy := range []string{"ROUND_ROBIN", "LEAST_REQUEST", "RANDOM", "CSWRR", "WRR_LOCALITY"} {
		bad := 0
		for k := range 100 {
			c := genCluster(r, policy)
			doc := c.yaml()
			cfg, err := config.LoadBytes("c.yaml", []byte(doc), "")
			if err != nil {
				t.Fatalf("%s #%d: %v\n%s", policy, k, err, doc)
			}
			opt := c.options()
			rep, err := Build(cfg, cfg.Clusters, opt)
			if err != nil {
				t.Fatalf("%s #%d: %v\n%s", policy, k, err, doc)
			}
			cr := rep.Clusters[0]
			want := c.reference(t, cr, opt)
			for _, pr := range cr.Priorities {
				if pr.Panic {
					seen["panic"]++
				}
				if pr.DegradedLoad > 0 {
					seen["degraded load"]++
				}
			}
			for name, on := range map[string]bool{"typed": c.typed, "legacy": !c.typed, "locality": c.locality,
				"full scan": c.fullScan, "bias": c.biasSet, "slow start ages": c.window > 0 && len(opt.HostAges) > 0,
				"reported weights": len(opt.HostWeights) > 0, "active": len(opt.ActiveRequests) > 0, "total panic": cr.TotalPanic} {
				if on {
					seen[name]++
				}
			}
			got := map[string]float64{}
			for _, h := range cr.Hosts {
				if h.Share == nil {
					t.Fatalf("%s #%d: %s has no share\n%s", policy, k, h.Address, doc)
				}
				got[h.Address] = *h.Share
			}
			var diffs []string
			for i, h := range c.hosts {
				if math.Abs(got[h.addr]-want[i]) > 1e-9 {
					diffs = append(diffs, fmt.Sprintf("%s: lbctl %.12f reference %.12f", h.addr, got[h.addr], want[i]))
				}
			}
			if len(diffs) > 0 {
				bad++
				if bad <= 2 {
					sort.Strings(diffs)
					t.Errorf("%s #%d: %s\noptions %+v\n%s", policy, k, strings.Join(diffs, "\n"), opt, doc)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of 100 configs disagree", policy, bad)
		}
	}
	for _, k := range []string{"panic", "degraded load", "typed", "legacy", "locality", "full scan", "bias", "slow start ages", "reported weights", "active", "total panic"} {
		if seen[k] == 0 {
			t.Errorf("the generator never produced %q", k)
		}
	}
	t.Logf("cases: %v", seen)
}
