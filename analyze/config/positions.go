package config

import (
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"
)

// positions maps decoded messages to the nodes they were read from. Every
// message is written once while loading and few are ever asked for, so a
// record is an append to a log in decode order (a hash map insert per
// message was a third of loading a 100k-host cluster, and 18 MB); the
// index, a copy sorted by address, is built only once lookups have scanned
// about as much of the log as sorting it costs.
//
// Records are appended by the loader alone, before any report shares
// Sources; lookups may come from many goroutines, and mu guards the index
// and the log's hand-over to it.
type positions struct {
	// The log: message pointers and their nodes' ids (nodeID), in decode
	// order, recorded since the index was last built. Pointers keep the
	// messages alive, so an address never comes back as another message's.
	keys []unsafe.Pointer
	ids  []uint32

	mu sync.RWMutex
	// The index: the records before the log, sorted by address, only the
	// first record of each message.
	sorted []unsafe.Pointer
	sids   []uint32
	// scanned counts log entries lookups read since the index was built.
	scanned atomic.Int64
}

// add appends a record; an earlier record of the same message stays the one
// found (lookups search older records first, sorting is stable).
func (p *positions) add(k unsafe.Pointer, id uint32) {
	p.keys = append(p.keys, k)
	p.ids = append(p.ids, id)
}

// grow makes room for about n more records.
func (p *positions) grow(n int) {
	if cap(p.keys)-len(p.keys) >= n {
		return
	}
	keys := make([]unsafe.Pointer, len(p.keys), len(p.keys)+n)
	ids := make([]uint32, len(p.ids), len(p.ids)+n)
	copy(keys, p.keys)
	copy(ids, p.ids)
	p.keys, p.ids = keys, ids
}

// find returns the id recorded first for k.
func (p *positions) find(k unsafe.Pointer) (uint32, bool) {
	if k == nil {
		return 0, false
	}
	p.mu.RLock()
	id, ok, scan := p.lookup(k)
	cost := 4*len(p.keys) + len(p.sorted) + 4096 // sort the log, merge
	p.mu.RUnlock()
	// Once lookups have read about as much of the log as indexing it
	// costs, index it (ski rental: never over twice the best).
	if scan > 0 && p.scanned.Add(int64(scan)) > int64(cost) {
		p.index()
	}
	return id, ok
}

// lookup searches the index, then the log; scan is how much log it read.
func (p *positions) lookup(k unsafe.Pointer) (id uint32, ok bool, scan int) {
	a := uintptr(k)
	if i := sort.Search(len(p.sorted), func(i int) bool { return uintptr(p.sorted[i]) >= a }); i < len(p.sorted) && p.sorted[i] == k {
		return p.sids[i], true, 0
	}
	for i, key := range p.keys {
		if key == k {
			return p.ids[i], true, i + 1
		}
	}
	return 0, false, len(p.keys)
}

// index moves the log into the index.
func (p *positions) index() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scanned.Store(0)
	if len(p.keys) == 0 {
		return
	}
	log := make([]rec, len(p.keys))
	for i, k := range p.keys {
		log[i] = rec{k, p.ids[i]}
	}
	p.keys, p.ids = nil, nil
	log = radixSort(log)
	// Merge: the index's records are older, so they win a tie; within the
	// log the first of equal keys is the oldest (the sort is stable).
	keys := make([]unsafe.Pointer, 0, len(p.sorted)+len(log))
	ids := make([]uint32, 0, cap(keys))
	i := 0
	for j, r := range log {
		if j > 0 && log[j-1].p == r.p {
			continue
		}
		for i < len(p.sorted) && uintptr(p.sorted[i]) < uintptr(r.p) {
			keys, ids = append(keys, p.sorted[i]), append(ids, p.sids[i])
			i++
		}
		if i < len(p.sorted) && p.sorted[i] == r.p {
			continue
		}
		keys, ids = append(keys, r.p), append(ids, r.id)
	}
	keys, ids = append(keys, p.sorted[i:]...), append(ids, p.sids[i:]...)
	p.sorted, p.sids = keys, ids
}

type rec struct {
	p  unsafe.Pointer
	id uint32
}

// radixSort sorts records by address, stably (LSD radix, a byte a pass;
// bytes every address shares, such as the heap's high bits, are skipped).
func radixSort(a []rec) []rec {
	var counts [8][256]int
	for _, r := range a {
		k := uintptr(r.p)
		for d := range counts {
			counts[d][byte(k>>(8*d))]++
		}
	}
	var b []rec
	for d := range counts {
		c := &counts[d]
		if c[byte(uintptr(a[0].p)>>(8*d))] == len(a) {
			continue // one value: the pass would not move anything
		}
		if b == nil {
			b = make([]rec, len(a))
		}
		sum := 0
		for v := range c {
			c[v], sum = sum, sum+c[v]
		}
		for _, r := range a {
			v := byte(uintptr(r.p) >> (8 * d))
			b[c[v]] = r
			c[v]++
		}
		a, b = b, a
	}
	return a
}
