package hash

import (
	"cmp"
	"fmt"
	"slices"
)

// Maglev limits: MaglevTable::DefaultTableSize (maglev_lb.h) and the proto's
// lte bound on table_size (maglev.proto).
const (
	DefaultMaglevTableSize uint64 = 65537
	MaxMaglevTableSize     uint64 = 5000011
)

// MaglevConfig is a MAGLEV policy's placement settings. There are no
// implicit defaults (an explicit table_size of 0 is an error in Envoy):
// start from DefaultMaglevConfig.
type MaglevConfig struct {
	TableSize   uint64
	UseHostname bool // use_hostname_for_hashing
}

// DefaultMaglevConfig is what Envoy uses when maglev_lb_config is empty.
func DefaultMaglevConfig() MaglevConfig {
	return MaglevConfig{TableSize: DefaultMaglevTableSize}
}

func (c MaglevConfig) size() uint64 { return c.TableSize }

// IsPrime is Primes::isPrime (source/common/common/utility.cc, newest): 0 is
// not prime, 1, 2 and 3 are, other even numbers are not, the rest by trial
// division with odd factors.
func IsPrime(x uint64) bool {
	if x == 0 {
		return false
	}
	if x < 4 {
		return true
	}
	if x%2 == 0 {
		return false
	}
	for f := uint64(3); f*f <= x; f += 2 {
		if x%f == 0 {
			return false
		}
	}
	return true
}

// Validate applies the proto bound and MaglevLoadBalancer's prime check
// (same message as Envoy's exception). Sizes below 2 are rejected too:
// Envoy's isPrime accepts 1, but the skip's "% (size-1)" then divides by zero.
func (c MaglevConfig) Validate() error {
	n := c.size()
	if n > MaxMaglevTableSize {
		return fmt.Errorf("maglev: table_size (%d) must be <= %d", n, MaxMaglevTableSize)
	}
	if !IsPrime(n) {
		return fmt.Errorf("The table size of maglev must be prime number")
	}
	if n < 2 {
		return fmt.Errorf("maglev: table_size (%d) must be at least 2 (Envoy would divide by zero)", n)
	}
	return nil
}

// MaglevTable is one priority level's lookup table.
type MaglevTable struct {
	Hosts []WeightedHost // the normalized vector, in Envoy's order
	Keys  []string       // each host's hash key
	Size  uint64         // table size N
	// Slots[i] is the index into Hosts of slot i; empty when there are no
	// hosts or the table was built by BuildMaglevCounts.
	Slots []int32
	// Counts is the number of slots each host fills.
	Counts []uint64
	// MinEntriesPerHost and MaxEntriesPerHost are Envoy's gauges. With a
	// single host Envoy builds a DegenerateMaglevTable and reports 1/1
	// (maglev_lb_test.cc SingleHost), though that host answers every slot.
	MinEntriesPerHost, MaxEntriesPerHost uint64
	Warnings                             []string
}

// BuildMaglev is MaglevTable::constructMaglevTableInternal and
// OriginalMaglevTable::constructImplementationInternals (maglev_lb.cc). Hosts
// are sorted by hash key (bytewise, stable on ties); each gets offset =
// xxHash64(key) % N and skip = xxHash64(key, 1) % (N-1) + 1; rounds then let
// a host claim its next free permutation slot whenever iteration*weight has
// reached its running target (which grows by the max weight per claim).
// The compact table runs the same fill, so its picks are identical.
func BuildMaglev(nw NormalizedWeights, cfg MaglevConfig) (*MaglevTable, error) {
	return buildMaglev(nw, cfg, true)
}

// BuildMaglevCounts is BuildMaglev without the slots (Slots stays nil, so
// Pick finds no host): every claim of the fill succeeds, so how many slots
// each host gets follows from the weight schedule alone (maglevCounts: no
// table, no hashing, closed form for equal weights). Enough for shares and
// the placement summary; lookups need BuildMaglev.
func BuildMaglevCounts(nw NormalizedWeights, cfg MaglevConfig) (*MaglevTable, error) {
	return buildMaglev(nw, cfg, false)
}

func buildMaglev(nw NormalizedWeights, cfg MaglevConfig, withSlots bool) (*MaglevTable, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := cfg.size()
	t := &MaglevTable{Hosts: nw.Hosts, Size: n}
	if len(nw.Hosts) == 0 {
		return t, nil
	}
	for _, wh := range nw.Hosts {
		// A positive weight is what guarantees the fill terminates.
		if !(wh.Weight > 0) || wh.Weight > nw.Max {
			return nil, fmt.Errorf("maglev: invalid normalized weight %v (max %v)", wh.Weight, nw.Max)
		}
	}
	t.Keys = make([]string, len(nw.Hosts))
	for i, wh := range nw.Hosts {
		t.Keys[i] = Key(wh.Host, cfg.UseHostname)
	}
	type entry struct {
		host           int
		skip, cur      uint64 // cur = (offset + skip*next) % n, stepped by skip
		weight, target float64
		count          uint64
	}
	order := make([]int, len(nw.Hosts))
	for i := range order {
		order[i] = i
	}
	// Stable on equal keys: ties go by input index (a total order, so the
	// faster unstable sort gives the stable result).
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(t.Keys[a], t.Keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	entries := make([]entry, len(order))
	for i, h := range order {
		entries[i] = entry{host: h, weight: nw.Hosts[h].Weight}
		if withSlots {
			k := t.Keys[h]
			entries[i].cur, entries[i].skip = XXHash64(k)%n, XXHash64Seed(k, 1)%(n-1)+1
		}
	}
	var counts []uint64
	if !withSlots {
		w := make([]float64, len(entries))
		for i, e := range entries {
			w[i] = e.weight
		}
		counts = maglevCounts(w, nw.Max, n)
	}
	for i, c := range counts {
		entries[i].count = c
	}
	if counts == nil {
		var full []uint64
		if withSlots {
			t.Slots = make([]int32, n)
			// Probes test a bitmap of taken slots (8 KiB for the default size,
			// in L1) instead of the 256 KiB table.
			full = make([]uint64, (n+63)/64)
		}
		filled := uint64(0)
		for iteration := uint32(1); filled < n; iteration++ {
			for i := 0; i < len(entries) && filled < n; i++ {
				e := &entries[i]
				if float64(iteration)*e.weight < e.target {
					continue
				}
				e.target += nw.Max
				if withSlots {
					// Envoy computes (offset + skip*next) % n afresh; stepping
					// by skip modulo n is the same slot without a division
					// (next < n and skip < n: Envoy's product never wraps).
					for full[e.cur>>6]&(1<<(e.cur&63)) != 0 {
						e.cur = stepMod(e.cur, e.skip, n)
					}
					full[e.cur>>6] |= 1 << (e.cur & 63)
					t.Slots[e.cur] = int32(e.host)
					e.cur = stepMod(e.cur, e.skip, n)
				}
				e.count++
				filled++
			}
		}
	}
	t.Counts = make([]uint64, len(nw.Hosts))
	t.MinEntriesPerHost = n
	for _, e := range entries {
		t.Counts[e.host] = e.count
		t.MinEntriesPerHost = min(t.MinEntriesPerHost, e.count)
		t.MaxEntriesPerHost = max(t.MaxEntriesPerHost, e.count)
	}
	if len(entries) == 1 {
		t.MinEntriesPerHost, t.MaxEntriesPerHost = 1, 1
	}
	t.Warnings = keyWarningsSorted(t.Keys, order)
	return t, nil
}

// stepMod is (c + skip) % n for c, skip < n.
func stepMod(c, skip, n uint64) uint64 {
	c += skip
	if c >= n {
		c -= n
	}
	return c
}

// Pick is OriginalMaglevTable::chooseHost: attempt k > 0 first XORs the hash
// with 2^64-k, then slot = hash % N. ok is false for an empty table. Small
// enough to inline; len(Slots) == Size, which drops the bounds check.
func (t *MaglevTable) Pick(hash uint64, attempt uint32) (host int, ok bool) {
	s := t.Slots
	if len(s) == 0 {
		return 0, false
	}
	if attempt > 0 {
		hash ^= ^uint64(0) - uint64(attempt) + 1
	}
	return int(s[hash%uint64(len(s))]), true
}
