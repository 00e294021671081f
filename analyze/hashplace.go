package analyze

import (
	"fmt"
	"math"
	"slices"

	"github.com/lbctl/lbctl/lbmodel"
)

// noHost stands for "no host" when placements are compared.
const noHost = "(no host)"

// placement is one priority level's ring or Maglev table, built as
// ThreadAwareLoadBalancerBase::refresh (thread_aware_lb_impl.cc) builds it:
// from the level's healthy hosts, or all of them when the level is in panic.
type placement struct {
	priority int
	panic    bool
	hosts    []lbmodel.Host // every host of the level, file order
	ring     *lbmodel.Ring
	table    *lbmodel.MaglevTable
}

// hashSetup is a cluster's whole hashing state: priority loads and one
// placement per level.
type hashSetup struct {
	policy string
	load   lbmodel.PriorityLoad
	levels []placement
}

// buildHashSetup computes priority loads for hosts and builds each level's
// ring (policy RING_HASH) or table (MAGLEV).
func buildHashSetup(policy string, hosts []lbmodel.Host, m *Model, s LBSettings, local *lbmodel.Locality) (*hashSetup, error) {
	levels := lbmodel.LevelsFromHosts(hosts, m.OverprovisioningFactor, m.WeightedPriorityHealth)
	hs := &hashSetup{policy: policy, load: lbmodel.ComputePriorityLoad(levels, m.PanicThreshold)}
	for p := range levels {
		var in []lbmodel.Host
		for _, h := range hosts {
			if h.Priority == p {
				in = append(in, h)
			}
		}
		pl := placement{priority: p, hosts: in}
		if p < len(hs.load.Levels) {
			pl.panic = hs.load.Levels[p].Panic
		}
		nw, err := lbmodel.NormalizeWeights(in, lbmodel.NormalizeOptions{LocalityWeighted: s.LocalityWeighted, Panic: pl.panic, LocalLocality: local})
		if err != nil {
			return nil, fmt.Errorf("P%d: %v", p, err)
		}
		if policy == "RING_HASH" {
			pl.ring, err = lbmodel.BuildRing(nw, s.Ring)
		} else {
			pl.table, err = lbmodel.BuildMaglev(nw, s.Maglev)
		}
		if err != nil {
			return nil, err
		}
		hs.levels = append(hs.levels, pl)
	}
	return hs, nil
}

// choose is the priority Envoy uses for hash h: LoadBalancerBase::choosePriority
// over the per-priority loads, falling back to P0 when no load is assigned.
func (hs *hashSetup) choose(h uint64) (priority int, degraded bool) {
	p, d, ok := hs.load.Choose(h)
	if !ok {
		return 0, false
	}
	return p, d
}

// pick is the host the level answers hash h with (attempt 0), and its ring
// entry index or table slot; ok is false for an empty ring or table.
func (pl *placement) pick(h uint64) (addr string, position uint64, ok bool) {
	if pl.ring != nil {
		e, ok := pl.ring.Lookup(h, 0)
		if !ok {
			return "", 0, false
		}
		return pl.ring.Hosts[pl.ring.Entries[e].Host].Host.Address, uint64(e), true
	}
	if pl.table == nil {
		return "", 0, false
	}
	i, ok := pl.table.Pick(h, 0)
	if !ok {
		return "", 0, false
	}
	return pl.table.Hosts[i].Host.Address, h % pl.table.Size, true
}

func (pl *placement) owner(h uint64) string {
	if a, _, ok := pl.pick(h); ok {
		return a
	}
	return noHost
}

// size is the number of ring entries or table slots (0 for an empty table).
func (pl *placement) size() uint64 {
	if pl.ring != nil {
		return uint64(len(pl.ring.Entries))
	}
	if pl.table != nil && len(pl.table.Slots) > 0 {
		return pl.table.Size
	}
	return 0
}

func (pl *placement) shares() []lbmodel.HostShare {
	if pl.ring != nil {
		return pl.ring.Shares()
	}
	return pl.table.Shares()
}

func (pl *placement) weights() []lbmodel.WeightedHost {
	if pl.ring != nil {
		return pl.ring.Hosts
	}
	return pl.table.Hosts
}

func (pl *placement) warnings() []string {
	if pl.ring != nil {
		return pl.ring.Warnings
	}
	return pl.table.Warnings
}

// movedBetween is the fraction of the hash space whose host differs between
// level b of one setup and level a of another (lbmodel.RingMoved /
// lbmodel.MaglevMoved), and where the moved part goes, by new host.
func movedBetween(b, a *placement) (float64, map[string]float64, error) {
	to := map[string]float64{}
	if b.ring != nil {
		moved := lbmodel.RingMoved(b.ring, a.ring)
		// The same segment walk as RingMoved, keeping the destination.
		var cuts []uint64
		for _, e := range b.ring.Entries {
			cuts = append(cuts, e.Hash)
		}
		for _, e := range a.ring.Entries {
			cuts = append(cuts, e.Hash)
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		for i, c := range cuts {
			dst := a.owner(c)
			if b.owner(c) == dst {
				continue
			}
			var arc float64
			if i == 0 {
				arc = float64(c) + 1 + float64(math.MaxUint64-cuts[len(cuts)-1])
			} else {
				arc = float64(c - cuts[i-1])
			}
			to[dst] += arc / 18446744073709551616.0
		}
		return moved, to, nil
	}
	moved, err := lbmodel.MaglevMoved(b.table, a.table)
	if err != nil {
		return 0, nil, err
	}
	for s := range b.table.Size {
		if dst := a.owner(s); b.owner(s) != dst {
			to[dst] += 1 / float64(b.table.Size)
		}
	}
	return moved, to, nil
}

// setupMoved compares two whole setups (priority choice and placement).
// choosePriority depends only on h%100 and each ring arc or Maglev slot
// class holds every residue mod 100 in equal measure (to within 1e-14), so
// the result is the mean over the 100 residues of the moved fraction
// between the levels the residue selects before and after.
func setupMoved(before, after *hashSetup) (float64, map[string]float64, error) {
	type pair struct{ b, a int }
	cache := map[pair]struct {
		moved float64
		to    map[string]float64
	}{}
	total := 0.0
	to := map[string]float64{}
	for r := uint64(0); r < 100; r++ {
		pb, _ := before.choose(r)
		pa, _ := after.choose(r)
		k := pair{pb, pa}
		v, ok := cache[k]
		if !ok {
			var bl, al *placement
			if pb < len(before.levels) {
				bl = &before.levels[pb]
			}
			if pa < len(after.levels) {
				al = &after.levels[pa]
			}
			if bl == nil || al == nil {
				// A side with no level at all: everything it had moves or
				// nothing can move to it.
				v.moved, v.to = 1, map[string]float64{noHost: 1}
				if bl == nil && al == nil {
					v.moved, v.to = 0, map[string]float64{}
				}
			} else {
				m, t, err := movedBetween(bl, al)
				if err != nil {
					return 0, nil, err
				}
				v.moved, v.to = m, t
			}
			cache[k] = v
		}
		total += v.moved / 100
		for h, f := range v.to {
			to[h] += f / 100
		}
	}
	return total, to, nil
}
