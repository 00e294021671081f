package lbmodel

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Ring hash limits: DefaultMinRingSize / DefaultMaxRingSize (ring_hash_lb.h)
// and the proto's lte bound on both sizes (ring_hash.proto).
const (
	DefaultMinRingSize uint64 = 1024
	DefaultMaxRingSize uint64 = 8 * 1024 * 1024
	MaxRingSizeLimit   uint64 = 8388608
)

// RingConfig is a RING_HASH policy's placement settings. There are no
// implicit defaults (a minimum of 0 is legal and gives an empty ring): start
// from DefaultRingConfig.
type RingConfig struct {
	MinRingSize, MaxRingSize uint64
	HashFunction             HashFunction
	UseHostname              bool // use_hostname_for_hashing
}

// DefaultRingConfig is what Envoy uses when ring_hash_lb_config is empty.
func DefaultRingConfig() RingConfig {
	return RingConfig{MinRingSize: DefaultMinRingSize, MaxRingSize: DefaultMaxRingSize}
}

// Validate applies the proto limits and RingHashLoadBalancer's constructor
// check (same message as Envoy's exception).
func (c RingConfig) Validate() error {
	if c.MinRingSize > MaxRingSizeLimit {
		return fmt.Errorf("ring hash: minimum_ring_size (%d) must be <= %d", c.MinRingSize, MaxRingSizeLimit)
	}
	if c.MaxRingSize > MaxRingSizeLimit {
		return fmt.Errorf("ring hash: maximum_ring_size (%d) must be <= %d", c.MaxRingSize, MaxRingSizeLimit)
	}
	if c.MinRingSize > c.MaxRingSize {
		return fmt.Errorf("ring hash: minimum_ring_size (%d) > maximum_ring_size (%d)", c.MinRingSize, c.MaxRingSize)
	}
	if c.HashFunction != HashXX && c.HashFunction != HashMurmur2 {
		return fmt.Errorf("ring hash: unknown hash function %d", int(c.HashFunction))
	}
	return nil
}

// RingEntry is one point on the ring; Host indexes Ring.Hosts.
type RingEntry struct {
	Hash uint64
	Host int
}

// Ring is one priority level's hash ring as RingHashLoadBalancer::Ring builds it.
type Ring struct {
	Hosts []WeightedHost // the normalized vector, in Envoy's order
	Keys  []string       // each host's hash key (HashKey)
	// Entries sorted by hash (stable: equal hashes keep build order).
	Entries []RingEntry
	// Counts is the number of entries of each host.
	Counts []uint64
	// Scale is min(ceil(min_w*min_ring)/min_w, max_ring).
	Scale float64
	// Size is Envoy's ring_hash_lb.size gauge, ceil(Scale); the real entry
	// count is len(Entries).
	Size uint64
	// MinHashesPerHost and MaxHashesPerHost are Envoy's gauges (0 when empty).
	MinHashesPerHost, MaxHashesPerHost uint64
	Warnings                           []string
}

// BuildRing is RingHashLoadBalancer::Ring::Ring (ring_hash_lb.cc): each host
// in order gets entries "key_0", "key_1", ... while a running count stays
// below the running target sum of scale*weight, so fractional shares carry
// over to the next host; the entries are then sorted by hash.
func BuildRing(nw NormalizedWeights, cfg RingConfig) (*Ring, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Ring{Hosts: nw.Hosts}
	if len(nw.Hosts) == 0 {
		return r, nil
	}
	minW := nw.Min
	if !(minW > 0) || math.IsInf(minW, 0) {
		return nil, fmt.Errorf("ring hash: invalid minimum normalized weight %v", minW)
	}
	for _, wh := range nw.Hosts {
		// Normalized weights lie in (0, 1]; anything else (from a hand-built
		// vector) could make the running sums run away.
		if !(wh.Weight >= 0 && wh.Weight <= 1+1e-9) {
			return nil, fmt.Errorf("ring hash: invalid normalized weight %v", wh.Weight)
		}
	}
	scale := min(math.Ceil(minW*float64(cfg.MinRingSize))/minW, float64(cfg.MaxRingSize))
	r.Scale = scale
	r.Size = uint64(math.Ceil(scale))
	r.Keys = make([]string, len(nw.Hosts))
	r.Counts = make([]uint64, len(nw.Hosts))
	r.Entries = make([]RingEntry, 0, r.Size)
	r.MinHashesPerHost = r.Size
	current, target := 0.0, 0.0
	buf := make([]byte, 0, 64)
	for i, wh := range nw.Hosts {
		key := HashKey(wh.Host, cfg.UseHostname)
		r.Keys[i] = key
		// float64() forbids fusing into an FMA, which x86-64 Envoy never does.
		target += float64(scale * wh.Weight)
		var n uint64
		for current < target {
			buf = strconv.AppendUint(append(append(buf[:0], key...), '_'), n, 10)
			r.Entries = append(r.Entries, RingEntry{Hash: cfg.HashFunction.sumBytes(buf), Host: i})
			n++
			current++
		}
		r.Counts[i] = n
		r.MinHashesPerHost = min(r.MinHashesPerHost, n)
		r.MaxHashesPerHost = max(r.MaxHashesPerHost, n)
	}
	// Stable by hash: entries were built host by host, so ordering equal
	// hashes by host keeps build order (equal hash and host are
	// indistinguishable). O(n log n), where the stable sort's O(n log² n)
	// took seconds on Envoy's largest (8M) ring.
	slices.SortFunc(r.Entries, func(a, b RingEntry) int {
		if c := cmp.Compare(a.Hash, b.Hash); c != 0 {
			return c
		}
		return cmp.Compare(a.Host, b.Host)
	})
	r.Warnings = keyWarnings(r.Keys)
	return r, nil
}

// Lookup is Ring::chooseHost: ketama's binary search (signed indices), which
// lands on the first entry whose hash is >= h, wrapping to entry 0 past the
// last one. Attempt k > 0 (retry host predicate) moves k entries further,
// modulo the ring length. ok is false for an empty ring.
func (r *Ring) Lookup(h uint64, attempt uint32) (entry int, ok bool) {
	n := int64(len(r.Entries))
	if n == 0 {
		return 0, false
	}
	low, high, mid := int64(0), n, int64(0)
	for {
		mid = (low + high) / 2
		if mid == n {
			mid = 0
			break
		}
		val := r.Entries[mid].Hash
		var prev uint64
		if mid > 0 {
			prev = r.Entries[mid-1].Hash
		}
		if h <= val && h > prev {
			break
		}
		if val < h {
			low = mid + 1
		} else {
			high = mid - 1
		}
		if low > high {
			mid = 0
			break
		}
	}
	if attempt > 0 {
		mid = (mid + int64(attempt)) % n
	}
	return int(mid), true
}

// Pick is Lookup returning the host index (into Hosts) instead of the entry.
func (r *Ring) Pick(h uint64, attempt uint32) (host int, ok bool) {
	e, ok := r.Lookup(h, attempt)
	if !ok {
		return 0, false
	}
	return r.Entries[e].Host, true
}
