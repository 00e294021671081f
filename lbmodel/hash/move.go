package hash

import (
	"fmt"
	"math"

	"github.com/lbctl/lbctl/lbmodel"
)

// HostShare is one host's part of a ring or Maglev table.
type HostShare struct {
	Host    int    // index into the ring's or table's Hosts
	Address string // Host.Address
	Entries uint64 // ring entries or table slots
	// Share is the fraction of the hash space the host answers: for a ring,
	// the length of the 2^64 arcs ending at its points; for Maglev, slots/N.
	Share float64
}

// ShareStats summarizes shares: min, max and population standard deviation.
type ShareStats struct {
	Min, Max, StdDev float64
}

const twoTo64 = 18446744073709551616.0

// Shares measures each host's share of the 2^64 hash space. Entry i answers
// the hashes in (point[i-1], point[i]]; entry 0 also takes everything above
// the last point (the wrap-around). Empty ring: no shares.
func (r *Ring) Shares() []HostShare {
	out := baseShares(r.Hosts, r.Counts)
	n := len(r.Hashes)
	if n == 0 {
		return out
	}
	for i, h := range r.Hashes {
		var arc float64
		if i == 0 {
			// point[0] + 1 + (2^64-1 - point[n-1]) = point[0] - point[n-1] + 2^64.
			arc = float64(h) + 1 + float64(math.MaxUint64-r.Hashes[n-1])
		} else {
			arc = float64(h - r.Hashes[i-1])
		}
		out[r.EntryHosts[i]].Share += arc / twoTo64
	}
	return out
}

// Shares gives each host's slot count and slots/N.
func (t *MaglevTable) Shares() []HostShare {
	out := baseShares(t.Hosts, t.Counts)
	if len(t.Hosts) == 0 { // no slots; a counts-only table has shares too
		return out
	}
	for i := range out {
		out[i].Share = float64(out[i].Entries) / float64(t.Size)
	}
	return out
}

func baseShares(hosts []WeightedHost, counts []uint64) []HostShare {
	out := make([]HostShare, len(hosts))
	for i, h := range hosts {
		out[i] = HostShare{Host: i, Address: h.Host.Address}
		if i < len(counts) {
			out[i].Entries = counts[i]
		}
	}
	return out
}

// ComputeShareStats is min, max and population standard deviation of the
// shares; all zero for no hosts.
func ComputeShareStats(shares []HostShare) ShareStats {
	if len(shares) == 0 {
		return ShareStats{}
	}
	s := ShareStats{Min: math.Inf(1), Max: math.Inf(-1)}
	mean := 0.0
	for _, h := range shares {
		s.Min = min(s.Min, h.Share)
		s.Max = max(s.Max, h.Share)
		mean += h.Share
	}
	mean /= float64(len(shares))
	v := 0.0
	for _, h := range shares {
		v += (h.Share - mean) * (h.Share - mean)
	}
	s.StdDev = math.Sqrt(v / float64(len(shares)))
	return s
}

// RingMoved is the fraction of the 2^64 hash space whose host (compared by
// address; "no host" is a value of its own) differs between two rings, e.g.
// before and after removing hosts. It is measured exactly over the segments
// cut by the points of both rings, not by sampling.
func RingMoved(before, after *Ring) float64 {
	moved, _ := RingMovedTo(before, after, "\x00none")
	return moved
}

// RingMovedTo is RingMoved and, by the host that answers it after (none
// for no host), the part of the hash space that moved.
func RingMovedTo(before, after *Ring, none string) (float64, map[string]float64) {
	to := map[string]float64{}
	// Both rings are sorted by hash, so one merged sweep visits every cut
	// in order and keeps, per ring, the first entry at or past it (what
	// Ring.Lookup finds, wrapping to entry 0): linear, no copy of either
	// ring (Envoy's rings reach 8M entries).
	type cursor struct {
		r *Ring
		i int
	}
	owner := func(c *cursor, h uint64) string {
		hs := c.r.Hashes
		for c.i < len(hs) && hs[c.i] < h {
			c.i++
		}
		if len(hs) == 0 {
			return none
		}
		return c.r.Hosts[c.r.EntryHosts[c.i%len(hs)]].Host.Address
	}
	b, a := &cursor{r: before}, &cursor{r: after}
	nb, na := len(before.Hashes), len(after.Hashes)
	if nb+na == 0 {
		return 0, to
	}
	last := uint64(0)
	if nb > 0 {
		last = before.Hashes[nb-1]
	}
	if na > 0 {
		last = max(last, after.Hashes[na-1])
	}
	// Both rings are constant on each (prev, c] between consecutive cuts
	// and on the wrap-around arc (last, 2^64-1] + [0, first cut].
	moved := 0.0
	first, prev := true, uint64(0)
	for ib, ia := 0, 0; ib < nb || ia < na; {
		var c uint64
		switch {
		case ia >= na || ib < nb && before.Hashes[ib] <= after.Hashes[ia]:
			c = before.Hashes[ib]
		default:
			c = after.Hashes[ia]
		}
		for ib < nb && before.Hashes[ib] == c {
			ib++
		}
		for ia < na && after.Hashes[ia] == c {
			ia++
		}
		if dst := owner(a, c); owner(b, c) != dst {
			arc := float64(c - prev)
			if first {
				arc = float64(c) + 1 + float64(math.MaxUint64-last)
			}
			moved += arc
			to[dst] += arc / twoTo64
		}
		first, prev = false, c
	}
	return moved / twoTo64, to
}

// MaglevMoved is the fraction of slots whose host (compared by address;
// "no host" is a value of its own) differs between two tables of one size.
func MaglevMoved(before, after *MaglevTable) (float64, error) {
	if before.Size != after.Size {
		return 0, fmt.Errorf("maglev: tables of sizes %d and %d cannot be compared", before.Size, after.Size)
	}
	if before.Size == 0 {
		return 0, nil
	}
	owner := func(t *MaglevTable, slot uint64) string {
		i, ok := t.Pick(slot, 0)
		if !ok {
			return "\x00none"
		}
		return t.Hosts[i].Host.Address
	}
	var moved uint64
	for s := range before.Size {
		if owner(before, s) != owner(after, s) {
			moved++
		}
	}
	return float64(moved) / float64(before.Size), nil
}

// WithoutAddresses returns hosts minus those whose Address is listed, for
// "what moves when these hosts are removed" (lbctl hash --remove).
func WithoutAddresses(hosts []lbmodel.Host, addrs []string) []lbmodel.Host {
	gone := make(map[string]bool, len(addrs))
	for _, a := range addrs {
		gone[a] = true
	}
	out := make([]lbmodel.Host, 0, len(hosts))
	for _, h := range hosts {
		if !gone[h.Address] {
			out = append(out, h)
		}
	}
	return out
}
