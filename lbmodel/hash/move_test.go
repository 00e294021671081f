package hash

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// Host :90 of Envoy's Basic ring answers (928266305478181108, 1033482794131418490]
// and (15516499411664133160, 16117243373044804889]; computed here with big ints.
func TestRingSharesBasic(t *testing.T) {
	r := mustRing(t, ports(90, 91, 92, 93, 94, 95), NormalizeOptions{}, ringCfg(12, 0))
	sh := r.Shares()
	arc := new(big.Int).Sub(big.NewInt(0).SetUint64(1033482794131418490), big.NewInt(0).SetUint64(928266305478181108))
	arc.Add(arc, new(big.Int).Sub(new(big.Int).SetUint64(16117243373044804889), new(big.Int).SetUint64(15516499411664133160)))
	want, _ := new(big.Rat).SetFrac(arc, new(big.Int).Lsh(big.NewInt(1), 64)).Float64()
	if !near(sh[0].Share, want, 1e-15) || sh[0].Entries != 2 || sh[0].Address != "127.0.0.1:90" {
		t.Errorf("share[0] = %+v, want share %v", sh[0], want)
	}
	// :94 owns entry 0, so the wrap-around arc (16117243373044804889, 2^64) too.
	wrap := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), new(big.Int).SetUint64(16117243373044804889))
	wrap.Add(wrap, new(big.Int).SetUint64(833437586790550860))
	wrap.Add(wrap, new(big.Int).Sub(new(big.Int).SetUint64(15516499411664133160), new(big.Int).SetUint64(13444792449719432967)))
	want4, _ := new(big.Rat).SetFrac(wrap, new(big.Int).Lsh(big.NewInt(1), 64)).Float64()
	if !near(sh[4].Share, want4, 1e-15) {
		t.Errorf("share[4] = %v want %v", sh[4].Share, want4)
	}
	total := 0.0
	for _, s := range sh {
		total += s.Share
	}
	if !near(total, 1, 1e-12) {
		t.Errorf("shares sum to %v", total)
	}
	st := ComputeShareStats(sh)
	if st.Min > st.Max || st.StdDev <= 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestRingSharesOneEntry(t *testing.T) {
	r := mustRing(t, ports(90), NormalizeOptions{}, ringCfg(1, 1))
	if sh := r.Shares(); len(sh) != 1 || sh[0].Share != 1 {
		t.Errorf("a single point owns the whole ring: %+v", sh)
	}
	if ComputeShareStats(nil) != (ShareStats{}) {
		t.Error("no hosts: zero stats")
	}
}

func TestMaglevSharesBasic(t *testing.T) {
	m := mustMaglev(t, ports(90, 91, 92, 93, 94, 95), NormalizeOptions{}, MaglevConfig{TableSize: 7})
	sh := m.Shares()
	for i, s := range sh {
		want := 1.0 / 7
		if i == 0 {
			want = 2.0 / 7
		}
		if s.Share != want {
			t.Errorf("share[%d] = %v want %v", i, s.Share, want)
		}
	}
	st := ComputeShareStats(sh)
	if st.Min != 1.0/7 || st.Max != 2.0/7 {
		t.Errorf("stats %+v", st)
	}
}

func TestRingMoved(t *testing.T) {
	hosts := ports(90, 91, 92, 93, 94, 95)
	before := mustRing(t, hosts, NormalizeOptions{}, ringCfg(12, 0))
	if RingMoved(before, before) != 0 {
		t.Error("same ring: nothing moves")
	}
	// 5 hosts with minimum 10 keep 2 entries each, the same points as
	// before: exactly :94's arcs move.
	after := mustRing(t, WithoutAddresses(hosts, []string{"127.0.0.1:94"}), NormalizeOptions{}, ringCfg(10, 0))
	if got, want := RingMoved(before, after), before.Shares()[4].Share; !near(got, want, 1e-15) {
		t.Errorf("moved %v, want :94's share %v", got, want)
	}
	empty := mustRing(t, nil, NormalizeOptions{}, DefaultRingConfig())
	if RingMoved(before, empty) != 1 || RingMoved(empty, empty) != 0 {
		t.Error("to/from an empty ring everything moves")
	}
	// Against sampling, with a rescaled ring (1024 entries before and after).
	big := make([]lbmodel.Host, 0, 20)
	for i := range 20 {
		big = append(big, ports(1000+i)...)
	}
	b := mustRing(t, big, NormalizeOptions{}, DefaultRingConfig())
	a := mustRing(t, WithoutAddresses(big, []string{"127.0.0.1:1003", "127.0.0.1:1017"}), NormalizeOptions{}, DefaultRingConfig())
	rng := rand.New(rand.NewPCG(5, 6))
	moved, n := 0, 200000
	for range n {
		h := rng.Uint64()
		x, _ := b.Pick(h, 0)
		y, _ := a.Pick(h, 0)
		if b.Hosts[x].Host.Address != a.Hosts[y].Host.Address {
			moved++
		}
	}
	if got := RingMoved(b, a); !near(got, float64(moved)/float64(n), 0.005) {
		t.Errorf("exact %v vs sampled %v", got, float64(moved)/float64(n))
	}
}

func TestMaglevMoved(t *testing.T) {
	hosts := ports(90, 91, 92, 93, 94, 95)
	before := mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: 65537})
	if got, _ := MaglevMoved(before, before); got != 0 {
		t.Error("same table: nothing moves")
	}
	after := mustMaglev(t, WithoutAddresses(hosts, []string{"127.0.0.1:92"}), NormalizeOptions{}, MaglevConfig{TableSize: 65537})
	got, err := MaglevMoved(before, after)
	if err != nil {
		t.Fatal(err)
	}
	// At least :92's slots move; compare with a direct slot count.
	var moved uint64
	for s := range uint64(65537) {
		x, _ := before.Pick(s, 0)
		y, _ := after.Pick(s, 0)
		if before.Hosts[x].Host.Address != after.Hosts[y].Host.Address {
			moved++
		}
	}
	if got != float64(moved)/65537 || got < before.Shares()[2].Share {
		t.Errorf("moved %v (direct %d slots)", got, moved)
	}
	if _, err := MaglevMoved(before, mustMaglev(t, hosts, NormalizeOptions{}, MaglevConfig{TableSize: 7})); err == nil {
		t.Error("different sizes must be an error")
	}
}
