package placement

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// noHost stands for "no host" when placements are compared.
const noHost = "(no host)"

// Level is one priority level's ring or Maglev table, built as
// ThreadAwareLoadBalancerBase::refresh (thread_aware_lb_impl.cc) builds it:
// from the level's healthy hosts, or all of them when the level is in panic.
type Level struct {
	Priority int
	Panic    bool
	Hosts    []lbmodel.Host // every host of the level, file order
	Ring     *hash.Ring
	Table    *hash.MaglevTable
}

// Setup is a cluster's whole hashing state: priority loads and one
// placement per level.
type Setup struct {
	Policy string
	Load   lbmodel.PriorityLoad
	Levels []Level
	// LocalityWeighted: the levels were normalized by locality weight.
	LocalityWeighted bool
}

// EmptyCause is why level i has no entry (lbmodel.NotEmpty when it has
// one): the one reason explain, hash and lint give.
func (hs *Setup) EmptyCause(i int) hash.EmptyCause {
	pl := &hs.Levels[i]
	return hash.LevelEmptyCause(pl.Hosts, hash.NormalizeOptions{LocalityWeighted: hs.LocalityWeighted, Panic: pl.Panic})
}

// Build computes priority loads for hosts and builds each level's
// ring (policy RING_HASH) or table (MAGLEV).
func Build(policy string, hosts []lbmodel.Host, m *model.Model, s model.LBSettings, local *lbmodel.Locality) (*Setup, error) {
	return build(policy, hosts, m, s, local, true)
}

// BuildShares is Build for shares and summaries only: Maglev tables are
// counts-only (hash.BuildMaglevCounts), so Pick finds no host in them.
func BuildShares(policy string, hosts []lbmodel.Host, m *model.Model, s model.LBSettings, local *lbmodel.Locality) (*Setup, error) {
	return build(policy, hosts, m, s, local, false)
}

func build(policy string, hosts []lbmodel.Host, m *model.Model, s model.LBSettings, local *lbmodel.Locality, lookups bool) (*Setup, error) {
	levels := lbmodel.LevelsFromHosts(hosts, m.OverprovisioningFactor, m.WeightedPriorityHealth)
	hs := &Setup{Policy: policy, Load: lbmodel.ComputePriorityLoad(levels, m.PanicThreshold), LocalityWeighted: s.LocalityWeighted}
	for p := range levels {
		in := model.PriorityHosts(hosts, p) // read-only: may share hosts' array
		pl := Level{Priority: p, Hosts: in}
		if p < len(hs.Load.Levels) {
			pl.Panic = hs.Load.Levels[p].Panic
		}
		nw, err := m.Tables().Normalize(in, hash.NormalizeOptions{LocalityWeighted: s.LocalityWeighted, Panic: pl.Panic, LocalLocality: local, EmptyLocalityWeight: m.EmptyLocalityWeight[p]})
		if err != nil {
			return nil, fmt.Errorf("P%d: %v", p, err)
		}
		if policy == "RING_HASH" {
			pl.Ring, err = m.Tables().Ring(nw, s.Ring)
		} else {
			if lookups {
				pl.Table, err = m.Tables().Maglev(nw, s.Maglev)
			} else {
				pl.Table, err = m.Tables().MaglevCounts(nw, s.Maglev)
			}
		}
		if err != nil {
			return nil, err
		}
		hs.Levels = append(hs.Levels, pl)
	}
	return hs, nil
}

// Choose is the priority Envoy uses for hash h: LoadBalancerBase::choosePriority
// over the per-priority loads, falling back to P0 when no load is assigned.
func (hs *Setup) Choose(h uint64) (priority int, degraded bool) {
	p, d, ok := hs.Load.Choose(h)
	if !ok {
		return 0, false
	}
	return p, d
}

// Pick is the host the level answers hash h with (attempt 0), and its ring
// entry index or table slot; ok is false for an empty ring or table.
func (pl *Level) Pick(h uint64) (addr string, position uint64, ok bool) {
	if pl.Ring != nil {
		e, ok := pl.Ring.Lookup(h, 0)
		if !ok {
			return "", 0, false
		}
		return pl.Ring.Hosts[pl.Ring.EntryHosts[e]].Host.Address, uint64(e), true
	}
	if pl.Table == nil {
		return "", 0, false
	}
	i, ok := pl.Table.Pick(h, 0)
	if !ok {
		return "", 0, false
	}
	return pl.Table.Hosts[i].Host.Address, h % pl.Table.Size, true
}

func (pl *Level) Owner(h uint64) string {
	if a, _, ok := pl.Pick(h); ok {
		return a
	}
	return noHost
}

// Size is the number of ring entries or table slots (0 for an empty table).
func (pl *Level) Size() uint64 {
	if pl.Ring != nil {
		return uint64(pl.Ring.Len())
	}
	if pl.Table != nil && len(pl.Table.Hosts) > 0 { // Slots may be counts-only
		return pl.Table.Size
	}
	return 0
}

func (pl *Level) Shares() []hash.HostShare {
	if pl.Ring != nil {
		return pl.Ring.Shares()
	}
	return pl.Table.Shares()
}

func (pl *Level) Weights() []hash.WeightedHost {
	if pl.Ring != nil {
		return pl.Ring.Hosts
	}
	return pl.Table.Hosts
}

func (pl *Level) Warnings() []string {
	if pl.Ring != nil {
		return pl.Ring.Warnings
	}
	return pl.Table.Warnings
}

// movedBetween is the fraction of the hash space whose host differs between
// level b of one setup and level a of another (hash.RingMoved /
// hash.MaglevMoved), and where the moved part goes, by new host.
func movedBetween(b, a *Level) (float64, map[string]float64, error) {
	to := map[string]float64{}
	if b.Ring != nil {
		// One linear sweep over both sorted rings (hash.RingMovedTo).
		moved, to := hash.RingMovedTo(b.Ring, a.Ring, noHost)
		return moved, to, nil
	}
	moved, err := hash.MaglevMoved(b.Table, a.Table)
	if err != nil {
		return 0, nil, err
	}
	for s := range b.Table.Size {
		if dst := a.Owner(s); b.Owner(s) != dst {
			to[dst] += 1 / float64(b.Table.Size)
		}
	}
	return moved, to, nil
}

// Moved compares two whole setups (priority choice and placement).
// choosePriority depends only on h%100 and each ring arc or Maglev slot
// class holds every residue mod 100 in equal measure (to within 1e-14), so
// the result is the mean over the 100 residues of the moved fraction
// between the levels the residue selects before and after.
func Moved(before, after *Setup) (float64, map[string]float64, error) {
	type pair struct{ b, a int }
	cache := map[pair]struct {
		moved float64
		to    map[string]float64
	}{}
	total := 0.0
	to := map[string]float64{}
	for r := uint64(0); r < 100; r++ {
		pb, _ := before.Choose(r)
		pa, _ := after.Choose(r)
		k := pair{pb, pa}
		v, ok := cache[k]
		if !ok {
			var bl, al *Level
			if pb < len(before.Levels) {
				bl = &before.Levels[pb]
			}
			if pa < len(after.Levels) {
				al = &after.Levels[pa]
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
