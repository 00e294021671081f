package failure

import (
	"cmp"
	"slices"

	"github.com/lbctl/lbctl/lbmodel"
)

// LocalityBudget is how many of one locality's currently healthy hosts can
// fail, one after another in the FailOrder and with every other host
// unchanged, while a state still holds (nil: never, as in Budget). The
// priority states are those of Budget, for the locality's priority.
type LocalityBudget struct {
	Budget
	// BeforeShift: the locality's share of its priority's healthy traffic
	// (LocalityShare.Share) has not dropped: nothing has moved to other
	// localities.
	BeforeShift *int `json:"before_shift"`
}

// MaxLocalityBudgetWork bounds LocalityBudgets: a failure step may rebuild
// the cluster's model, so the work is about (healthy hosts) × (hosts); a
// ring or Maglev table rebuilt per step counts 1000 times as much.
const MaxLocalityBudgetWork = 20_000_000

// shareEpsilon absorbs float summation noise when a locality share is
// compared with itself recomputed from unchanged weights.
const shareEpsilon = 1e-12

// LocalityBudgets returns, per priority and per locality (in GroupLocalities
// order, as ClusterShares' Priorities[p].Localities), the budget of failing
// that locality's healthy hosts alone. The priority states come from the
// level counts, as in ClusterBudgets; the share is recomputed with the
// whole model (effective locality weights, LocalityWrr::effectiveLocalityWeight,
// or zone routing, ZoneAwareLoadBalancerBase::regenerateLocalityRoutingStructures)
// after each failure until it moves. ok is false past MaxLocalityBudgetWork.
func LocalityBudgets(c lbmodel.ClusterInput, order FailOrder) (out [][]LocalityBudget, ok bool, err error) {
	healthy := 0
	for _, h := range c.Hosts {
		if isHealthyHost(h) {
			healthy++
		}
	}
	work := healthy * len(c.Hosts)
	if c.LB.Policy == lbmodel.PolicyPrecomputed {
		work *= 1000
	}
	if work > MaxLocalityBudgetWork {
		return nil, false, nil
	}
	base, err := lbmodel.Prepare(c)
	if err != nil {
		return nil, true, err
	}
	cur := c
	cur.Hosts = slices.Clone(c.Hosts)
	levels := slices.Clone(base.Levels())
	thr := min(100, c.PanicThreshold)
	out = make([][]LocalityBudget, len(base.Levels()))
	for p := range base.Levels() {
		ps, err := base.PriorityShares(p)
		if err != nil {
			return nil, true, err
		}
		for gi, g := range base.Localities(p).Groups {
			idx := failIndices(c.Hosts, g.Healthy, order)
			ws := make([]uint64, len(idx))
			for i, h := range idx {
				ws[i] = lbmodel.HostWeight(c.Hosts[h])
			}
			pre := prefixWeights(ws)
			// The priority states need only the level counts (as
			// ClusterBudgets); clusterLoad carries the locality's share,
			// 1 while it holds, which needs the whole model.
			state := func(k int, shareHolds bool) budgetState {
				levels[p] = failLevel(base.Levels()[p], pre, k)
				pl := lbmodel.ComputePriorityLoad(levels, thr)
				l := pl.Levels[p]
				s := budgetState{load: l.HealthyLoad + l.DegradedLoad, panic: l.Panic, total: pl.TotalPanic}
				if shareHolds {
					s.clusterLoad = 1
				}
				return s
			}
			share := ps.Localities[gi].Share
			var stepErr error
			shifted := false
			b, shift := scanBudget(len(idx), state(0, true), func(k int) budgetState {
				if !shifted && stepErr == nil {
					cur.Hosts[idx[k-1]].Status = lbmodel.StatusUnhealthy
					m, err := lbmodel.Prepare(cur)
					var s lbmodel.PriorityShares
					if err == nil {
						s, err = m.PriorityShares(p)
					}
					if err != nil {
						stepErr = err
					} else {
						shifted = s.Localities[localityIndex(s, g.Locality)].Share < share-shareEpsilon
					}
				}
				return state(k, !shifted)
			})
			levels[p] = base.Levels()[p]
			copy(cur.Hosts, c.Hosts)
			if stepErr != nil {
				return nil, true, stepErr
			}
			out[p] = append(out[p], LocalityBudget{Budget: b, BeforeShift: shift})
		}
	}
	return out, true, nil
}

// failIndices orders a locality's healthy host indices as they fail: the
// last in file order first, or heaviest first (ties: the later first).
func failIndices(hosts []lbmodel.Host, healthy []int, order FailOrder) []int {
	idx := slices.Clone(healthy)
	slices.Reverse(idx)
	if order == FailHeaviestFirst {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(lbmodel.HostWeight(hosts[b]), lbmodel.HostWeight(hosts[a])) })
	}
	return idx
}

// localityIndex finds loc among s's localities; a failed host never removes
// its locality (it still has the host), so it is always there.
func localityIndex(s lbmodel.PriorityShares, loc lbmodel.Locality) int {
	for i, l := range s.Localities {
		if l.Locality == loc {
			return i
		}
	}
	return 0
}
