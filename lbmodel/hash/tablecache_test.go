package hash

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// sharesByScan is the mapping SharesByAddress replaces: for each share, the
// first host with its address not yet given one.
func sharesByScan(hosts []lbmodel.Host, shares []HostShare) []float64 {
	out := make([]float64, len(hosts))
	used := make([]bool, len(hosts))
	for _, s := range shares {
		for i, h := range hosts {
			if !used[i] && h.Address == s.Address {
				used[i] = true
				out[i] = s.Share
				break
			}
		}
	}
	return out
}

func TestSharesByAddressMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := rng.IntN(30)
		hosts := make([]lbmodel.Host, n)
		for i := range hosts {
			// Few distinct addresses: duplicates are the point.
			hosts[i] = lbmodel.Host{Address: string(rune('a' + rng.IntN(6)))}
		}
		var shares []HostShare
		for range rng.IntN(35) {
			shares = append(shares, HostShare{Address: string(rune('a' + rng.IntN(8))), Share: rng.Float64()})
		}
		if rng.IntN(2) == 0 { // the hosts' own order (the fast path), duplicates included
			shares = shares[:0]
			for _, h := range hosts {
				shares = append(shares, HostShare{Address: h.Address, Share: rng.Float64()})
			}
		}
		if got, want := SharesByAddress(hosts, shares), sharesByScan(hosts, shares); !slices.Equal(got, want) {
			t.Fatalf("hosts %v shares %v: got %v want %v", hosts, shares, got, want)
		}
	}
	// A real ring: every host gets its own share back.
	nw := mustNormalize(t, ports(90, 91, 92, 93), NormalizeOptions{})
	r, err := BuildRing(nw, DefaultRingConfig())
	if err != nil {
		t.Fatal(err)
	}
	hosts := ports(93, 90, 92, 91)
	if got, want := SharesByAddress(hosts, r.Shares()), sharesByScan(hosts, r.Shares()); !slices.Equal(got, want) || got[0] == 0 {
		t.Errorf("ring shares %v want %v", got, want)
	}
}

func TestTableCacheBuildsOnce(t *testing.T) {
	var c TableCache
	nw := mustNormalize(t, ports(90, 91, 92), NormalizeOptions{})
	a, err := c.Maglev(nw, DefaultMaglevConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Maglev(mustNormalize(t, ports(90, 91, 92), NormalizeOptions{}), DefaultMaglevConfig())
	if len(c.tables) != 1 || &a.Slots[0] != &b.Slots[0] {
		t.Error("the same vector must reuse the table")
	}
	fresh, _ := BuildMaglev(nw, DefaultMaglevConfig())
	if !slices.Equal(b.Slots, fresh.Slots) || !slices.Equal(b.Counts, fresh.Counts) {
		t.Error("a cached table must equal a fresh build")
	}
	// Another weight, size or address set is another table.
	w := ports(90, 91, 92)
	w[0].Weight = 2
	c.Maglev(mustNormalize(t, w, NormalizeOptions{}), DefaultMaglevConfig())
	c.Maglev(nw, MaglevConfig{TableSize: 7})
	c.Maglev(mustNormalize(t, ports(90, 91, 93), NormalizeOptions{}), DefaultMaglevConfig())
	if len(c.tables) != 4 {
		t.Errorf("%d tables cached, want 4", len(c.tables))
	}

	r1, _ := c.Ring(nw, DefaultRingConfig())
	r2, _ := c.Ring(nw, DefaultRingConfig())
	r3, _ := c.Ring(nw, ringCfg(16, 0))
	if len(c.rings) != 2 || &r1.Hashes[0] != &r2.Hashes[0] || r3.Len() == r1.Len() {
		t.Errorf("rings cached %d", len(c.rings))
	}
	for _, h := range []uint64{0, 1 << 40, 1 << 63, ^uint64(0)} {
		i1, _ := r1.Pick(h, 0)
		i2, _ := r2.Pick(h, 0)
		if i1 != i2 {
			t.Errorf("pick %d: %d vs %d", h, i1, i2)
		}
	}
}

// Every claim of the fill succeeds, so the counts follow from the weights
// alone: BuildMaglevCounts must agree with the full build everywhere.
func TestMaglevCountsMatchFullBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		n := 1 + rng.IntN(40)
		hosts := benchHosts(n)
		for i := range hosts {
			hosts[i].Weight = uint32(1 + rng.IntN(5))
			if trial%4 == 0 {
				hosts[i].Metadata = map[string]any{"hash_key": "k" + string(rune('a'+rng.IntN(3)))}
			}
		}
		nw := mustNormalize(t, hosts, NormalizeOptions{})
		cfg := MaglevConfig{TableSize: []uint64{7, 13, 251, 65537}[trial%4]}
		full, err := BuildMaglev(nw, cfg)
		if err != nil {
			t.Fatal(err)
		}
		counts, err := BuildMaglevCounts(nw, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if counts.Slots != nil || !slices.Equal(full.Counts, counts.Counts) || full.MinEntriesPerHost != counts.MinEntriesPerHost ||
			full.MaxEntriesPerHost != counts.MaxEntriesPerHost || !slices.Equal(full.Warnings, counts.Warnings) ||
			!slices.Equal(full.Shares(), counts.Shares()) {
			t.Fatalf("trial %d: counts-only %+v, full %+v", trial, counts.Counts, full.Counts)
		}
	}
	var c TableCache
	nw := mustNormalize(t, ports(90, 91, 92), NormalizeOptions{})
	if m, _ := c.MaglevCounts(nw, DefaultMaglevConfig()); m.Slots != nil {
		t.Error("MaglevCounts built slots")
	}
	if m, _ := c.Maglev(nw, DefaultMaglevConfig()); len(m.Slots) == 0 {
		t.Error("a counts-only cache entry must not answer Maglev")
	}
	if c.MaglevCounts(nw, DefaultMaglevConfig()); len(c.tables) != 2 {
		t.Error("MaglevCounts must reuse a cached table")
	}
}

// The radix sort must order points exactly as a stable sort by hash.
func TestSortRingEntriesIsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 255, 256, 257, 1000, 1026, 5000, 1 << 18, 1<<18 + 1, 300000} {
		in := make([]RingEntry, n)
		for i := range in {
			in[i] = RingEntry{Hash: rng.Uint64(), Host: i}
			if i > 0 && rng.IntN(4) == 0 {
				in[i].Hash = in[rng.IntN(i)].Hash // duplicates keep build order
			}
			if n == 1000 {
				in[i].Hash &= 0xff00ff // passes that move nothing are skipped
			}
			if n == 5000 && i%2 == 0 {
				in[i].Hash >>= 50 // crowded top bits: the bucket pass gives up
			}
		}
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b RingEntry) int {
			switch {
			case a.Hash < b.Hash:
				return -1
			case a.Hash > b.Hash:
				return 1
			}
			return 0
		})
		hs, ho := make([]uint64, n), make([]int32, n)
		for i, e := range in {
			hs[i], ho[i] = e.Hash, int32(e.Host)
		}
		gh, gho := sortRingPoints(hs, ho)
		got := make([]RingEntry, n)
		for i := range gh {
			got[i] = RingEntry{Hash: gh[i], Host: int(gho[i])}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: radix order differs from the stable sort", n)
		}
	}
}

func TestTableCacheNormalize(t *testing.T) {
	hosts := ports(90, 91, 92, 93)
	hosts[1].Weight, hosts[2].Locality = 3, lbmodel.Locality{Zone: "b"}
	local := &lbmodel.Locality{Zone: "b"}
	var c TableCache
	for _, opt := range []NormalizeOptions{{}, {Panic: true}, {LocalityWeighted: true}, {LocalityWeighted: true, LocalLocality: local}} {
		got, err := c.Normalize(hosts, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := mustNormalize(t, hosts, opt)
		if len(got.Hosts) != len(want.Hosts) || got.Min != want.Min || got.Max != want.Max {
			t.Fatalf("%+v: got %+v want %+v", opt, got, want)
		}
		for i := range got.Hosts {
			if got.Hosts[i].Host != want.Hosts[i].Host || got.Hosts[i].Weight != want.Hosts[i].Weight {
				t.Fatalf("%+v: host %d: got %+v want %+v", opt, i, got.Hosts[i], want.Hosts[i])
			}
		}
	}
	// All healthy: panic or not is one vector, computed once.
	if len(c.weights) != 3 {
		t.Errorf("%d vectors cached, want 3 (panic shares the healthy one)", len(c.weights))
	}
	// An unhealthy host: panic keeps it, no panic drops it.
	sick := ports(90, 91, 92)
	sick[1].Status = lbmodel.StatusUnhealthy
	a, _ := c.Normalize(sick, NormalizeOptions{})
	b, _ := c.Normalize(sick, NormalizeOptions{Panic: true})
	if len(a.Hosts) != 2 || len(b.Hosts) != 3 {
		t.Errorf("unhealthy host: %d and %d hosts, want 2 and 3", len(a.Hosts), len(b.Hosts))
	}
}
