package hash

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
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
	HashFunction             Function
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
	Keys  []string       // each host's hash key (Key)
	// Hashes are the ring's points sorted (stable: equal hashes keep build
	// order) and EntryHosts[i] is point i's index into Hosts: two flat
	// arrays so a lookup touches one cache line of hashes, not structs.
	Hashes     []uint64
	EntryHosts []int32
	// Counts is the number of entries of each host.
	Counts []uint64
	// Scale is min(ceil(min_w*min_ring)/min_w, max_ring).
	Scale float64
	// Size is Envoy's ring_hash_lb.size gauge, ceil(Scale); the real entry
	// count is Len().
	Size uint64
	// MinHashesPerHost and MaxHashesPerHost are Envoy's gauges (0 when empty).
	MinHashesPerHost, MaxHashesPerHost uint64
	Warnings                           []string

	// index answers most lookups with one load (ringindex.go).
	index ringIndex
}

// Len is the number of points on the ring.
func (r *Ring) Len() int { return len(r.Hashes) }

// Entry is point i.
func (r *Ring) Entry(i int) RingEntry {
	return RingEntry{Hash: r.Hashes[i], Host: int(r.EntryHosts[i])}
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
	// Points go straight into the two flat arrays (12 bytes a point; an
	// 8M-point ring is Envoy's largest), then are sorted in place.
	hashes := make([]uint64, 0, r.Size)
	hosts := make([]int32, 0, r.Size)
	r.MinHashesPerHost = r.Size
	current, target := 0.0, 0.0
	buf := make([]byte, 0, 64)
	first := make([]uint64, len(nw.Hosts)) // each key's "_0" point: equal keys, equal hashes
	for i, wh := range nw.Hosts {
		key := Key(wh.Host, cfg.UseHostname)
		r.Keys[i] = key
		// float64() forbids fusing into an FMA, which x86-64 Envoy never does.
		target += float64(scale * wh.Weight)
		var n uint64
		buf = append(append(buf[:0], key...), '_', '0')
		first[i] = cfg.HashFunction.sumBytes(buf)
		for current < target {
			h := first[i]
			if n > 0 {
				buf = incDecimal(buf, len(key)+1)
				h = cfg.HashFunction.sumBytes(buf)
			}
			hashes = append(hashes, h)
			hosts = append(hosts, int32(i))
			n++
			current++
		}
		r.Counts[i] = n
		r.MinHashesPerHost = min(r.MinHashesPerHost, n)
		r.MaxHashesPerHost = max(r.MaxHashesPerHost, n)
	}
	r.Hashes, r.EntryHosts = sortRingPoints(hashes, hosts)
	r.Index()
	r.Warnings = keyWarningsHashed(r.Keys, first)
	return r, nil
}

// incDecimal adds one to the decimal number buf[from:] (no leading zeros,
// as strconv writes it): "key_9" becomes "key_10" without reformatting.
func incDecimal(buf []byte, from int) []byte {
	for i := len(buf) - 1; i >= from; i-- {
		if buf[i] != '9' {
			buf[i]++
			return buf
		}
		buf[i] = '0'
	}
	buf = append(buf, '0')
	buf[from] = '1'
	return buf
}

// sortRingPoints is Envoy's stable sort by hash: equal hashes keep build
// order. Small rings take a comparison sort, the others one stable counting
// pass on the top bits (one or two points a bucket) and an insertion sort
// of what is left out of order; an LSD radix sort (eight byte-wide passes,
// stable by construction) finishes when the top bits crowd.
func sortRingPoints(hashes []uint64, hosts []int32) ([]uint64, []int32) {
	if len(hashes) < 256 {
		es := make([]RingEntry, len(hashes))
		for i := range hashes {
			es[i] = RingEntry{Hash: hashes[i], Host: int(hosts[i])}
		}
		slices.SortStableFunc(es, func(a, b RingEntry) int { return cmp.Compare(a.Hash, b.Hash) })
		for i, e := range es {
			hashes[i], hosts[i] = e.Hash, int32(e.Host)
		}
		return hashes, hosts
	}
	h, ho, ok := bucketSortPoints(hashes, hosts)
	if ok {
		return h, ho
	}
	// Equal hashes are still in build order: the radix sort finishes, with
	// the input arrays as its scratch.
	return radixSortPoints(h, ho, hashes, hosts)
}

// bucketSortPoints scatters the points by their top bits into new arrays
// (stable), then insertion-sorts them (stable: only greater hashes move).
// ok is false, the arrays left in a stable partial order, when the
// insertion sort would take more than a few moves a point.
func bucketSortPoints(hashes []uint64, hosts []int32) ([]uint64, []int32, bool) {
	n := len(hashes)
	k := bits.Len(uint(n)) - 1 // n/2 < 2^k <= n: 4 bytes a point at most
	shift := uint(64 - k)
	next := make([]int32, 1<<k)
	for _, h := range hashes {
		next[h>>shift]++
	}
	pos := int32(0)
	for b, c := range next {
		next[b] = pos
		pos += c
	}
	dh, dhost := make([]uint64, n), make([]int32, n)
	for i, h := range hashes {
		p := next[h>>shift]
		next[h>>shift]++
		dh[p], dhost[p] = h, hosts[i]
	}
	moves, budget := 0, 4*n
	for i := 1; i < n; i++ {
		h, ho := dh[i], dhost[i]
		j := i
		for j > 0 && dh[j-1] > h {
			dh[j], dhost[j] = dh[j-1], dhost[j-1]
			j--
		}
		dh[j], dhost[j] = h, ho
		if moves += i - j; moves > budget {
			return dh, dhost, false
		}
	}
	return dh, dhost, true
}

// radixSortPoints sorts using dh and dhost (as long) as scratch.
func radixSortPoints(hashes []uint64, hosts []int32, dh []uint64, dhost []int32) ([]uint64, []int32) {
	sh, shost := hashes, hosts
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		count = [256]int{}
		for _, h := range sh {
			count[byte(h>>shift)]++
		}
		if count[byte(sh[0]>>shift)] == len(sh) {
			continue // every key has this byte: the pass would not move anything
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for i, h := range sh {
			b := byte(h >> shift)
			dh[count[b]], dhost[count[b]] = h, shost[i]
			count[b]++
		}
		sh, dh = dh, sh
		shost, dhost = dhost, shost
	}
	return sh, shost
}
