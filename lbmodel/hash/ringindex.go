package hash

import (
	"math/bits"
	"slices"
)

// The ring's lookup index: m buckets of equal width over the hash space,
// bucket(h) = floor(h*m / 2^64), the high word of h*m. The low word is h's
// place inside its bucket: for h and p in one bucket, h <= p exactly when
// low(h) <= low(p) (h*m is monotone and injective). One 64-bit word a
// bucket answers Pick without touching Hashes or EntryHosts when the bucket
// holds at most K points (K = 2 up to 2^13 hosts, 1 up to 2^25, then no
// index): the top T bits of each point's low word ("splits", ascending) and
// K+1 hosts, the i-th being the answer when i splits are below h's top T
// bits (the last one is the host of the first point after the bucket).
// Equal top bits, or a bucket of more points (multiBit, with the index of
// its first point), go to a search of Hashes.
//
// m = Len()/ringIndexLoad, at most maxIndexWords: at load 1/2 about 1.4 %
// of uniform hashes land in a bucket of three points or more (9 % of two or
// more). Memory: 16 bytes a point up to 4M points, then 64 MiB (Envoy's
// largest ring, 8M points at load 1, 8 % crowded; its Hashes and EntryHosts
// take 96 MiB).
const (
	ringIndexLoad = 0.5
	maxIndexWords = 1 << 23
	multiBit      = uint64(1) << 63
	minSplitBits  = 12 // a tie on the kept bits then has odds <= 2^-12
	maxPerWord    = 2
)

type ringIndex struct {
	words []uint64
	m     uint64
	// Field layout: splits at bits 0 and sb (the second only when k = 2),
	// hosts from hostBase, hb bits each. fill1 makes a one-point layout's
	// absent second split read as never below and never equal to h's bits.
	sb, tShift, hostBase, hb uint8
	splitMask, fill1         uint64
	hostMask                 uint64
}

// wordLayout is the most points a word can describe for hosts of hb bits,
// and the split width then; k is 0 when not even one fits.
func wordLayout(hb int) (k, sb int) {
	for k = maxPerWord; k > 0; k-- {
		if sb = (63 - (k+1)*hb) / k; sb >= minSplitBits {
			return k, sb
		}
	}
	return 0, 0
}

// Index builds the lookup index over Hashes (sorted) and EntryHosts (call it
// after setting them by hand). Without a parallel EntryHosts, or with host
// indexes too wide for a word, there is no index and Lookup binary-searches
// Hashes.
func (r *Ring) Index() {
	r.index = ringIndex{}
	n := len(r.Hashes)
	if n == 0 || len(r.EntryHosts) != n || n > 1<<40 {
		return
	}
	maxHost := int32(0)
	for _, h := range r.EntryHosts {
		maxHost = max(maxHost, h)
	}
	hb := max(bits.Len32(uint32(maxHost)), 1)
	k, sb := wordLayout(hb)
	if k == 0 || maxHost < 0 {
		return
	}
	x := ringIndex{m: min(uint64(float64(n)/ringIndexLoad)+1, maxIndexWords), sb: uint8(sb), tShift: uint8(64 - sb),
		hostBase: uint8(k * sb), hb: uint8(hb), splitMask: 1<<sb - 1, hostMask: 1<<hb - 1}
	if k == 1 {
		x.fill1 = 1 << 62
	}
	x.words = make([]uint64, x.m)
	usb, uhb, uk := uint(sb), uint(hb), uint(k)
	base := uk * usb
	// An empty bucket: every split absent, host 0 the next point's.
	var noSplits uint64
	for j := range uk {
		noSplits |= x.splitMask << (j * usb)
	}
	next := uint64(0) // first bucket not yet written
	for i := 0; i < n; {
		b, lo := bits.Mul64(r.Hashes[i], x.m)
		start := i
		var w uint64
		for {
			if j := uint(i - start); j < uk {
				w |= lo>>(64-usb)<<(j*usb) | uint64(r.EntryHosts[i])<<(base+j*uhb)
			}
			if i++; i == n {
				break
			}
			var hi uint64
			if hi, lo = bits.Mul64(r.Hashes[i], x.m); hi != b {
				break
			}
		}
		fill := noSplits | uint64(r.EntryHosts[start])<<base
		for ; next < b; next++ {
			x.words[next] = fill
		}
		if c := uint(i - start); c > uk {
			w = multiBit | uint64(start)
		} else {
			for j := c; j < uk; j++ {
				w |= x.splitMask << (j * usb)
			}
			after := 0 // the first point after the bucket, wrapping to 0
			if i < n {
				after = i
			}
			w |= uint64(r.EntryHosts[after]) << (base + c*uhb)
		}
		x.words[b] = w
		next = b + 1
	}
	for fill := noSplits | uint64(r.EntryHosts[0])<<base; next < x.m; next++ {
		x.words[next] = fill // past the last point: point 0
	}
	r.index = x
}

// Pick is Lookup returning the host index (into Hosts) instead of the
// entry. Most hashes are answered by one word of the index, without a
// branch on what it holds: a mispredict after that load would cost the
// overlap of the next lookups' cache misses.
func (r *Ring) Pick(h uint64, attempt uint32) (host int, ok bool) {
	x := &r.index
	hi, lo := bits.Mul64(h, x.m)
	if attempt == 0 && hi < uint64(len(x.words)) {
		w := x.words[hi]
		t := lo >> (x.tShift & 63)
		s0 := w & x.splitMask
		s1 := w>>(x.sb&63)&x.splitMask | x.fill1
		below := (s0-t)>>63 + (s1-t)>>63 // splits < t
		host := int(w >> ((x.hostBase + uint8(below)*x.hb) & 63) & x.hostMask)
		if w < multiBit && min(s0^t, s1^t) != 0 { // not crowded, no tie
			return host, true
		}
	}
	e, ok := r.Lookup(h, attempt)
	if !ok {
		return 0, false
	}
	return int(r.EntryHosts[e]), true
}

// Lookup is Ring::chooseHost (ring_hash_lb.cc): ketama's binary search
// lands on the first point whose hash is >= h, wrapping to point 0 past the
// last one (TestRingLookupMatchesFirstGreaterOrEqual holds it to that).
// Attempt k > 0 (retry host predicate) moves k points further, modulo the
// ring length. ok is false for an empty ring.
func (r *Ring) Lookup(h uint64, attempt uint32) (entry int, ok bool) {
	n := len(r.Hashes)
	if n == 0 {
		return 0, false
	}
	e := r.firstAtLeast(h) // without an index (a ring built by hand) it searches
	if e == n {
		e = 0
	}
	if attempt > 0 {
		e = int((uint64(e) + uint64(attempt)) % uint64(n))
	}
	return e, true
}

// firstAtLeast is the first point with hash >= h, or Len(): a galloping
// search from a crowded bucket's first point (a step or two), else from
// where h would sit among uniform points (O(log) probes of the distance).
func (r *Ring) firstAtLeast(h uint64) int {
	n := len(r.Hashes)
	g, _ := bits.Mul64(h, uint64(n))
	if x := &r.index; len(x.words) != 0 {
		hi, _ := bits.Mul64(h, x.m)
		if w := x.words[hi]; w&multiBit != 0 {
			g = w &^ multiBit // every point before it is < h
		}
	}
	return lowerBoundFrom(r.Hashes, h, int(g))
}

// lowerBoundFrom is the first i with hs[i] >= h (len(hs) if none), found by
// galloping from g (0 <= g < len(hs)) and a binary search of the last step.
func lowerBoundFrom(hs []uint64, h uint64, g int) int {
	lo, hi := 0, len(hs) // the answer is in [lo, hi]
	if hs[g] < h {
		lo = g + 1
		for step := 1; g+step < len(hs); step *= 2 {
			if hs[g+step] >= h {
				hi = g + step
				break
			}
			lo = g + step + 1
		}
	} else {
		hi = g
		for step := 1; g-step >= 0; step *= 2 {
			if hs[g-step] < h {
				lo = g - step + 1
				break
			}
			hi = g - step
		}
	}
	i, _ := slices.BinarySearch(hs[lo:hi], h) // first of equal hashes
	return lo + i
}
