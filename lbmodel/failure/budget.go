package failure

import (
	"cmp"
	"slices"

	"github.com/lbctl/lbctl/lbmodel"
)

// FailOrder is the order in which a level's healthy hosts fail when a
// failure budget is computed.
type FailOrder int

const (
	// FailFileOrder fails the last healthy host in file order first: the
	// hosts --set-health turns unhealthy as its count goes down.
	FailFileOrder FailOrder = iota
	// FailHeaviestFirst fails the healthy host with the largest
	// load_balancing_weight first (ties: the later in file order first). It
	// differs from FailFileOrder only with weighted_priority_health.
	FailHeaviestFirst
)

func (o FailOrder) String() string {
	if o == FailHeaviestFirst {
		return "weight"
	}
	return "file"
}

// Budget is how many of a level's currently healthy hosts can fail, one
// after another in the FailOrder and with every other host unchanged,
// while a state still holds. A nil field means never: the state still
// holds with all of the level's healthy hosts failed. 0 means the next
// failure changes it, or (panic, total panic) that it has already changed.
type Budget struct {
	// BeforeSpill: the level's load (healthy plus degraded) has not dropped.
	BeforeSpill *int `json:"before_spill"`
	// BeforePanic: the level is not in panic.
	BeforePanic *int `json:"before_panic"`
	// BeforeTotalPanic: the cluster (for an aggregate level, the aggregate
	// cluster) is not in total panic.
	BeforeTotalPanic *int `json:"before_total_panic"`
}

// AggregateBudget is a linearized aggregate level's budget.
type AggregateBudget struct {
	Budget
	// BeforeFailover: the level's child cluster's share of the aggregate's
	// traffic has not dropped (nothing has moved to another child).
	BeforeFailover *int `json:"before_failover"`
}

// budgetState is what a budget watches after k failures.
type budgetState struct {
	load, clusterLoad int
	panic, total      bool
}

// isHealthyHost is the "healthy" bucket of LevelsFromHosts.
func isHealthyHost(h lbmodel.Host) bool { return !h.Status.Excluded() && h.Health() == lbmodel.Healthy }

// failWeights returns the weights of priority p's healthy hosts in the
// order they fail.
func failWeights(hosts []lbmodel.Host, p int, order FailOrder) []uint64 {
	var idx []int
	for i := len(hosts) - 1; i >= 0; i-- {
		if hosts[i].Priority == p && isHealthyHost(hosts[i]) {
			idx = append(idx, i)
		}
	}
	if order == FailHeaviestFirst {
		// Stable: equal weights keep last-in-file-order first.
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(lbmodel.HostWeight(hosts[b]), lbmodel.HostWeight(hosts[a])) })
	}
	ws := make([]uint64, len(idx))
	for i, h := range idx {
		ws[i] = lbmodel.HostWeight(hosts[h])
	}
	return ws
}

// prefixWeights is pre[k] = ws[0]+…+ws[k-1], so failing k hosts costs O(1)
// instead of O(k) (the scan over k = 1..n was quadratic in hosts).
// uint64 sums wrap like the running subtraction did, so results are equal.
func prefixWeights(ws []uint64) []uint64 {
	pre := make([]uint64, len(ws)+1)
	for i, w := range ws {
		pre[i+1] = pre[i] + w
	}
	return pre
}

// failLevel returns l with the first k hosts (pre = prefixWeights of their
// weights) turned from healthy to unhealthy.
func failLevel(l lbmodel.Level, pre []uint64, k int) lbmodel.Level {
	l.Healthy -= k
	l.HealthyWeight -= pre[k]
	return l
}

// scanBudget evaluates k = 1..n failures and returns, for each watched
// state, k-1 at the first k that changes it (nil when none does). panic and
// total already reached before any failure give 0.
func scanBudget(n int, base budgetState, eval func(k int) budgetState) (b Budget, failover *int) {
	at := func(k int) *int { return &k }
	if base.panic {
		b.BeforePanic = at(0)
	}
	if base.total {
		b.BeforeTotalPanic = at(0)
	}
	for k := 1; k <= n; k++ {
		if b.BeforeSpill != nil && b.BeforePanic != nil && b.BeforeTotalPanic != nil && failover != nil {
			break
		}
		s := eval(k)
		if b.BeforeSpill == nil && s.load < base.load {
			b.BeforeSpill = at(k - 1)
		}
		if b.BeforePanic == nil && s.panic {
			b.BeforePanic = at(k - 1)
		}
		if b.BeforeTotalPanic == nil && s.total {
			b.BeforeTotalPanic = at(k - 1)
		}
		if failover == nil && s.clusterLoad < base.clusterLoad {
			failover = at(k - 1)
		}
	}
	return b, failover
}

// clusterLevels is the priority levels ClusterShares builds for c.
func clusterLevels(c lbmodel.ClusterInput) []lbmodel.Level {
	opf := c.OverprovisioningFactor
	if opf == 0 {
		opf = lbmodel.DefaultOverprovisioningFactor
	}
	return lbmodel.LevelsFromHosts(c.Hosts, opf, c.WeightedPriorityHealth)
}

// ClusterBudgets returns each priority level's failure budget (indexed like
// LevelsFromHosts), found by recomputing Envoy's priority load
// (ComputePriorityLoad) after each failure, so every rounding step is the
// code's own.
func ClusterBudgets(c lbmodel.ClusterInput, order FailOrder) []Budget {
	levels := clusterLevels(c)
	thr := min(100, c.PanicThreshold)
	state := func(ls []lbmodel.Level, p int) budgetState {
		pl := lbmodel.ComputePriorityLoad(ls, thr)
		l := pl.Levels[p]
		return budgetState{load: l.HealthyLoad + l.DegradedLoad, panic: l.Panic, total: pl.TotalPanic}
	}
	out := make([]Budget, len(levels))
	work := slices.Clone(levels)
	for p := range levels {
		ws := failWeights(c.Hosts, p, order)
		pre := prefixWeights(ws)
		out[p], _ = scanBudget(len(ws), state(levels, p), func(k int) budgetState {
			work[p] = failLevel(levels[p], pre, k)
			return state(work, p)
		})
		work[p] = levels[p]
	}
	return out
}

// AggregateBudgets returns the failure budget of each linearized level of
// an aggregate cluster (parallel to ComputeAggregate's Levels). Failing a
// host of a child that is listed twice fails it in both places, as the
// child has one host set. threshold is the aggregate's own.
func AggregateBudgets(children []lbmodel.AggregateChildInput, threshold int, order FailOrder) []AggregateBudget {
	base := make([]lbmodel.AggregateChild, len(children))
	hosts := map[string][]lbmodel.Host{}
	for i, c := range children {
		base[i] = lbmodel.AggregateChild{Name: c.Name, Kind: c.Kind}
		if c.Kind == lbmodel.ChildPresent {
			if _, ok := hosts[c.Name]; !ok {
				hosts[c.Name] = c.Cluster.Hosts
			}
			base[i].Levels = clusterLevels(c.Cluster)
		}
	}
	state := func(ac []lbmodel.AggregateChild, i int, name string) budgetState {
		a := lbmodel.ComputeAggregate(ac, threshold)
		l := a.Load.Levels[i]
		s := budgetState{load: l.HealthyLoad + l.DegradedLoad, panic: l.Panic, total: a.Load.TotalPanic}
		for _, cl := range a.ClusterLoad {
			if cl.Cluster == name {
				s.clusterLoad = cl.Load
			}
		}
		return s
	}
	lin := lbmodel.Linearize(base)
	out := make([]AggregateBudget, len(lin))
	for i, ll := range lin {
		ws := failWeights(hosts[ll.Cluster], ll.Priority, order)
		pre := prefixWeights(ws)
		work := slices.Clone(base)
		out[i].Budget, out[i].BeforeFailover = scanBudget(len(ws), state(base, i, ll.Cluster), func(k int) budgetState {
			for j, c := range base {
				if c.Kind == lbmodel.ChildPresent && c.Name == ll.Cluster {
					work[j].Levels = slices.Clone(c.Levels)
					work[j].Levels[ll.Priority] = failLevel(c.Levels[ll.Priority], pre, k)
				}
			}
			return state(work, i, ll.Cluster)
		})
	}
	return out
}
