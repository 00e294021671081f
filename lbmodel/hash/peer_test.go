package hash

import (
	"sort"
	"strconv"
)

// The peers that lbctl's ring and Maglev table are benchmarked against: a
// plain, Envoy-faithful build of each, written the way ring_hash_lb.cc and
// maglev_lb.cc write it (a vector of {hash, host pointer} searched with
// ketama's binary search; a table of host pointers). They are also checked
// to pick the same hosts as lbctl, so the benchmarks compare equal work.

type refHost struct {
	address string
	weight  float64
}

type refRingEntry struct {
	hash uint64
	host *refHost
}

type refRing struct{ entries []refRingEntry }

// buildRefRing is RingHashLoadBalancer::Ring::Ring with the normalized
// weights given: keys "addr_i" formatted per entry, then a stable sort.
func buildRefRing(hosts []*refHost, scale float64) *refRing {
	r := &refRing{}
	current, target := 0.0, 0.0
	for _, h := range hosts {
		target += float64(scale * h.weight)
		for i := 0; current < target; i++ {
			r.entries = append(r.entries, refRingEntry{XXHash64(h.address + "_" + strconv.Itoa(i)), h})
			current++
		}
	}
	sort.SliceStable(r.entries, func(i, j int) bool { return r.entries[i].hash < r.entries[j].hash })
	return r
}

// ketamaLookup is Ring::chooseHost's search over the entries.
func ketamaLookup(entries []refRingEntry, h uint64) (int, bool) {
	n := int64(len(entries))
	if n == 0 {
		return 0, false
	}
	low, high := int64(0), n
	for {
		mid := (low + high) / 2
		if mid == n {
			return 0, true
		}
		val := entries[mid].hash
		var prev uint64
		if mid > 0 {
			prev = entries[mid-1].hash
		}
		if h <= val && h > prev {
			return int(mid), true
		}
		if val < h {
			low = mid + 1
		} else {
			high = mid - 1
		}
		if low > high {
			return 0, true
		}
	}
}

func (r *refRing) pick(h uint64) *refHost {
	i, ok := ketamaLookup(r.entries, h)
	if !ok {
		return nil
	}
	return r.entries[i].host
}

type refMaglev struct {
	table []*refHost
	size  uint64
}

// buildRefMaglev is OriginalMaglevTable's fill with hosts already sorted by
// key: offset/skip from xxHash64, a host claims its next free permutation
// slot when iteration*weight reaches its target.
func buildRefMaglev(hosts []*refHost, size uint64, maxWeight float64) *refMaglev {
	type entry struct {
		host               *refHost
		offset, skip, next uint64
		target             float64
	}
	es := make([]entry, len(hosts))
	for i, h := range hosts {
		es[i] = entry{host: h, offset: XXHash64(h.address) % size, skip: XXHash64Seed(h.address, 1)%(size-1) + 1}
	}
	m := &refMaglev{table: make([]*refHost, size), size: size}
	filled := uint64(0)
	for iteration := 1; filled < size; iteration++ {
		for i := 0; i < len(es) && filled < size; i++ {
			e := &es[i]
			if float64(iteration)*e.host.weight < e.target {
				continue
			}
			e.target += maxWeight
			c := (e.offset + e.skip*e.next) % size
			for m.table[c] != nil {
				e.next++
				c = (e.offset + e.skip*e.next) % size
			}
			m.table[c] = e.host
			e.next++
			filled++
		}
	}
	return m
}

func (m *refMaglev) pick(h uint64) *refHost { return m.table[h%m.size] }

// refHosts is the peers' view of a normalized vector.
func refHosts(nw NormalizedWeights) []*refHost {
	out := make([]*refHost, len(nw.Hosts))
	for i, wh := range nw.Hosts {
		out[i] = &refHost{address: wh.Host.Address, weight: wh.Weight}
	}
	return out
}

// sortedRefHosts orders hosts by key as BuildMaglev does.
func sortedRefHosts(nw NormalizedWeights) []*refHost {
	out := refHosts(nw)
	sort.SliceStable(out, func(i, j int) bool { return out[i].address < out[j].address })
	return out
}
