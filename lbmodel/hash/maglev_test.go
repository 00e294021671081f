package hash

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

func mustMaglev(t *testing.T, hosts []lbmodel.Host, opt NormalizeOptions, cfg MaglevConfig) *MaglevTable {
	t.Helper()
	m, err := BuildMaglev(mustNormalize(t, hosts, opt), cfg)
	if err != nil {
		t.Fatalf("BuildMaglev: %v", err)
	}
	return m
}

// checkTable asserts slot i picks want[i] for hashes 0..3*len(want), as the
// Envoy Maglev tests do.
func checkTable(t *testing.T, m *MaglevTable, want []int) {
	t.Helper()
	for i := range 3 * len(want) {
		if got, ok := m.Pick(uint64(i), 0); !ok || got != want[i%len(want)] {
			t.Errorf("pick(%d) = %d,%v want %d", i, got, ok, want[i%len(want)])
		}
	}
}

func checkEntries(t *testing.T, m *MaglevTable, minE, maxE uint64) {
	t.Helper()
	if m.MinEntriesPerHost != minE || m.MaxEntriesPerHost != maxE {
		t.Errorf("min/max entries = %d/%d, want %d/%d", m.MinEntriesPerHost, m.MaxEntriesPerHost, minE, maxE)
	}
}

var maglevBasic = []int{2, 4, 0, 1, 5, 0, 3}

func TestMaglevEnvoyBasic(t *testing.T) {
	m := mustMaglev(t, ports(90, 91, 92, 93, 94, 95), NormalizeOptions{}, MaglevConfig{TableSize: 7})
	checkEntries(t, m, 1, 2)
	checkTable(t, m, maglevBasic)
}

// BasicStability: shuffling the healthy hosts does not change the table.
func TestMaglevEnvoyBasicStability(t *testing.T) {
	hosts := ports(90, 91, 92, 93, 94, 95)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 10 {
		rng.Shuffle(len(hosts), func(i, j int) { hosts[i], hosts[j] = hosts[j], hosts[i] })
		m := mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: 7})
		for i, w := range maglevBasic {
			got, _ := m.Pick(uint64(i), 0)
			if want := fmt.Sprintf("127.0.0.1:%d", 90+w); m.Hosts[got].Host.Address != want {
				t.Fatalf("slot %d = %s want %s", i, m.Hosts[got].Host.Address, want)
			}
		}
	}
}

func TestMaglevEnvoyHostnameMetadataBoundedLoad(t *testing.T) {
	named := ports(90, 91, 92, 93, 94, 95)
	keyed := ports(90, 91, 92, 93, 94, 95)
	for i := range named {
		named[i].Hostname = fmt.Sprint(90 + i)
		keyed[i].Metadata = map[string]any{"hash_key": fmt.Sprint(90 + i)}
	}
	// BasicWithHostName, BasicWithMetadataHashKey and BasicWithBoundedLoad
	// (bounded load is transparent with no active requests) share one table.
	for name, hosts := range map[string][]lbmodel.Host{"BasicWithHostName": named, "BasicWithMetadataHashKey": keyed} {
		t.Run(name, func(t *testing.T) {
			m := mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: 7, UseHostname: true})
			checkEntries(t, m, 1, 2)
			checkTable(t, m, []int{2, 5, 0, 3, 4, 1, 0})
		})
	}
}

func TestMaglevEnvoyBasicWithRetryHostPredicate(t *testing.T) {
	m := mustMaglev(t, ports(90, 91, 92, 93, 94, 95), NormalizeOptions{}, MaglevConfig{TableSize: 7})
	for _, c := range []struct {
		reject func(int) bool
		want   int
	}{
		{func(int) bool { return false }, 1},
		{func(h int) bool { return h == 1 }, 0},
		{func(int) bool { return true }, 5},
	} {
		if got, _ := retryPick(m.Pick, 10, 2, c.reject); got != c.want {
			t.Errorf("got %d want %d", got, c.want)
		}
	}
}

func TestMaglevEnvoyWeighted(t *testing.T) {
	hosts := ports(90, 91)
	hosts[1].Weight = 2
	m := mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: 17})
	checkEntries(t, m, 6, 11)
	checkTable(t, m, []int{1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1})
}

func TestMaglevEnvoySingleHost(t *testing.T) {
	for name, w := range map[string]uint32{"SingleHost": 1, "WeightedSingleHost": 7} {
		t.Run(name, func(t *testing.T) {
			hosts := ports(90)
			hosts[0].Weight = w
			size := uint64(7)
			if w == 7 {
				size = 17
			}
			m := mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: size})
			checkEntries(t, m, 1, 1)
			for i := range size {
				if got, ok := m.Pick(i, 0); !ok || got != 0 {
					t.Errorf("pick %d = %d", i, got)
				}
			}
			if m.Counts[0] != size {
				t.Errorf("the single host answers every slot: %d", m.Counts[0])
			}
		})
	}
}

func TestMaglevEnvoyLocalityWeighted(t *testing.T) {
	lw := NormalizeOptions{LocalityWeighted: true}
	t.Run("LocalityWeightedSameLocalityWeights", func(t *testing.T) {
		m := mustMaglev(t, zoned("AB", []uint32{1, 1}, []uint32{1, 2}), lw, MaglevConfig{TableSize: 17})
		checkEntries(t, m, 8, 9)
		checkTable(t, m, []int{1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1})
	})
	t.Run("LocalityWeightedDifferentLocalityWeights", func(t *testing.T) {
		// :90 in A (8), :91 in C (2), :92 in B (0).
		hosts := zoned("ACB", []uint32{8, 2, 0}, []uint32{1, 2, 3})
		m := mustMaglev(t, hosts, lw, MaglevConfig{TableSize: 17})
		checkEntries(t, m, 4, 13)
		want := []int{1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0}
		for i := range 3 * len(want) {
			got, _ := m.Pick(uint64(i), 0)
			if m.Hosts[got].Host.Address != hosts[want[i%len(want)]].Address {
				t.Errorf("pick %d = %s", i, m.Hosts[got].Host.Address)
			}
		}
	})
	t.Run("LocalityWeightedAllZeroLocalityWeights", func(t *testing.T) {
		m := mustMaglev(t, zoned("A", []uint32{0}, nil), lw, MaglevConfig{TableSize: 17})
		if _, ok := m.Pick(0, 0); ok {
			t.Error("want no host")
		}
	})
	t.Run("LocalityWeightedGlobalPanic", func(t *testing.T) {
		hosts := zoned("AB", []uint32{1, 1}, []uint32{1, 2})
		for i := range hosts {
			hosts[i].Status = lbmodel.StatusUnhealthy
		}
		m := mustMaglev(t, hosts, NormalizeOptions{LocalityWeighted: true, Panic: true}, MaglevConfig{TableSize: 17})
		checkEntries(t, m, 8, 9)
		checkTable(t, m, []int{1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1})
	})
	t.Run("LocalityWeightedLopsided", func(t *testing.T) {
		hosts := make([]lbmodel.Host, 1024)
		for i := range hosts {
			hosts[i] = lbmodel.Host{Address: fmt.Sprintf("127.0.0.1:%d", i), Locality: lbmodel.Locality{Zone: "B"}, LocalityWeight: 1, Status: lbmodel.StatusUnhealthy}
		}
		hosts[0].Locality, hosts[0].LocalityWeight = lbmodel.Locality{Zone: "A"}, 127
		m := mustMaglev(t, hosts, NormalizeOptions{LocalityWeighted: true, Panic: true}, DefaultMaglevConfig())
		checkEntries(t, m, 1, DefaultMaglevTableSize-1023)
		counts := make([]uint64, 1024)
		for i := range DefaultMaglevTableSize {
			h, _ := m.Pick(i, 0)
			counts[h]++
		}
		if counts[0] != DefaultMaglevTableSize-1023 || slices.ContainsFunc(counts[1:], func(c uint64) bool { return c != 1 }) {
			t.Errorf("heavy host %d slots; light hosts must have 1 each", counts[0])
		}
	})
}

func TestMaglevEnvoyNoPrimeNumber(t *testing.T) {
	_, err := BuildMaglev(NormalizedWeights{}, MaglevConfig{TableSize: 8})
	if err == nil || err.Error() != "The table size of maglev must be prime number" {
		t.Errorf("err = %v", err)
	}
	for _, n := range []uint64{0, 1, MaxMaglevTableSize + 2} {
		if err := (MaglevConfig{TableSize: n}).Validate(); err == nil {
			t.Errorf("size %d must be rejected", n)
		}
	}
	for _, n := range []uint64{2, 3, 7, 65537, MaxMaglevTableSize} {
		if err := (MaglevConfig{TableSize: n}).Validate(); err != nil {
			t.Errorf("size %d: %v", n, err)
		}
	}
}

func TestIsPrimeEnvoyQuirks(t *testing.T) {
	for n, want := range map[uint64]bool{0: false, 1: true, 2: true, 3: true, 4: false, 9: false, 25: false, 65537: true, 5000011: true, 5000013: false} {
		if IsPrime(n) != want {
			t.Errorf("IsPrime(%d) != %v", n, want)
		}
	}
}

func TestMaglevEdgeCases(t *testing.T) {
	t.Run("NoHost", func(t *testing.T) {
		m := mustMaglev(t, nil, NormalizeOptions{}, MaglevConfig{TableSize: 7})
		if _, ok := m.Pick(0, 0); ok {
			t.Error("want no host")
		}
	})
	t.Run("size 2", func(t *testing.T) {
		m := mustMaglev(t, ports(90, 91, 92), NormalizeOptions{}, MaglevConfig{TableSize: 2})
		if len(m.Slots) != 2 || m.Counts[0]+m.Counts[1]+m.Counts[2] != 2 {
			t.Errorf("slots %v counts %v", m.Slots, m.Counts)
		}
	})
	t.Run("more hosts than slots", func(t *testing.T) {
		m := mustMaglev(t, ports(90, 91, 92, 93, 94, 95, 96, 97, 98, 99), NormalizeOptions{}, MaglevConfig{TableSize: 7})
		checkEntries(t, m, 0, 1)
	})
	t.Run("bad weights", func(t *testing.T) {
		_, err := BuildMaglev(NormalizedWeights{Hosts: []WeightedHost{{Weight: 0}}, Max: 0}, MaglevConfig{TableSize: 7})
		if err == nil {
			t.Error("zero weight must be rejected")
		}
	})
	t.Run("ipv6 and duplicates", func(t *testing.T) {
		hosts := []lbmodel.Host{{Address: "[::1]:80"}, {Address: "[::1]:80"}, {Address: "10.0.0.1:80"}}
		m := mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: 13})
		if len(m.Warnings) != 1 || m.Counts[0]+m.Counts[1]+m.Counts[2] != 13 {
			t.Errorf("warnings %v counts %v", m.Warnings, m.Counts)
		}
	})
}
