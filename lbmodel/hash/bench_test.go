package hash

import (
	"fmt"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// Each benchmark runs lbctl ("lbctl") and the plain Envoy-faithful peer
// ("envoyref", peer_test.go) in the same run. See BENCHMARKS.md.

func benchHosts(n int) []lbmodel.Host {
	hs := make([]lbmodel.Host, n)
	for i := range hs {
		hs[i] = lbmodel.Host{Address: fmt.Sprintf("10.%d.%d.%d:8080", i>>16, (i>>8)&255, i&255), Weight: 1}
	}
	return hs
}

var sinkInt int

func benchNW(b *testing.B, n int) NormalizedWeights {
	nw, err := NormalizeWeights(benchHosts(n), NormalizeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return nw
}

func BenchmarkMaglevBuild(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		nw := benchNW(b, n)
		b.Run(fmt.Sprintf("hosts=%d/impl=lbctl", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := BuildMaglev(nw, DefaultMaglevConfig()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("hosts=%d/impl=envoyref", n), func(b *testing.B) {
			for b.Loop() {
				buildRefMaglev(sortedRefHosts(nw), DefaultMaglevTableSize, nw.Max)
			}
		})
	}
}

func BenchmarkRingBuild(b *testing.B) {
	for _, c := range []struct{ hosts, minRing int }{{100, 1024}, {100, 256 * 1024}, {10000, 1024}} {
		nw := benchNW(b, c.hosts)
		cfg := DefaultRingConfig()
		cfg.MinRingSize = uint64(c.minRing)
		name := fmt.Sprintf("hosts=%d,min=%d", c.hosts, c.minRing)
		b.Run(name+"/impl=lbctl", func(b *testing.B) {
			for b.Loop() {
				if _, err := BuildRing(nw, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
		r, _ := BuildRing(nw, cfg)
		b.Run(name+"/impl=envoyref", func(b *testing.B) {
			for b.Loop() {
				buildRefRing(refHosts(nw), r.Scale)
			}
		})
	}
}

// Lookups walk the hash space with a golden-ratio step: every probe lands
// somewhere new, as real request hashes do.
func BenchmarkRingLookup(b *testing.B) {
	for _, c := range []struct{ hosts, minRing int }{{16, 1024}, {100, 256 * 1024}, {1000, 1 << 20}} {
		nw := benchNW(b, c.hosts)
		cfg := DefaultRingConfig()
		cfg.MinRingSize = uint64(c.minRing)
		r, err := BuildRing(nw, cfg)
		if err != nil {
			b.Fatal(err)
		}
		ref := buildRefRing(refHosts(nw), r.Scale)
		name := fmt.Sprintf("entries=%d", r.Len())
		b.Run(name+"/impl=lbctl", func(b *testing.B) {
			h, s := uint64(0), 0
			for b.Loop() {
				h += 0x9e3779b97f4a7c15
				i, _ := r.Pick(h, 0)
				s += i
			}
			sinkInt = s
		})
		b.Run(name+"/impl=envoyref", func(b *testing.B) {
			h, s := uint64(0), 0
			for b.Loop() {
				h += 0x9e3779b97f4a7c15
				s += len(ref.pick(h).address)
			}
			sinkInt = s
		})
	}
}

func BenchmarkMaglevLookup(b *testing.B) {
	for _, n := range []int{100, 10000} {
		nw := benchNW(b, n)
		m, err := BuildMaglev(nw, DefaultMaglevConfig())
		if err != nil {
			b.Fatal(err)
		}
		ref := buildRefMaglev(sortedRefHosts(nw), DefaultMaglevTableSize, nw.Max)
		b.Run(fmt.Sprintf("hosts=%d/impl=lbctl", n), func(b *testing.B) {
			h, s := uint64(0), 0
			for b.Loop() {
				h += 0x9e3779b97f4a7c15
				i, _ := m.Pick(h, 0)
				s += i
			}
			sinkInt = s
		})
		b.Run(fmt.Sprintf("hosts=%d/impl=envoyref", n), func(b *testing.B) {
			h, s := uint64(0), 0
			for b.Loop() {
				h += 0x9e3779b97f4a7c15
				s += len(ref.pick(h).address)
			}
			sinkInt = s
		})
	}
}

// The peers must pick what lbctl picks, or the comparison is meaningless.
func TestPeersPickAsLbctl(t *testing.T) {
	nw := mustNormalize(t, benchHosts(300), NormalizeOptions{})
	r, err := BuildRing(nw, DefaultRingConfig())
	if err != nil {
		t.Fatal(err)
	}
	m, err := BuildMaglev(nw, DefaultMaglevConfig())
	if err != nil {
		t.Fatal(err)
	}
	rr := buildRefRing(refHosts(nw), r.Scale)
	rm := buildRefMaglev(sortedRefHosts(nw), DefaultMaglevTableSize, nw.Max)
	if len(rr.entries) != r.Len() {
		t.Fatalf("reference ring has %d entries, lbctl %d", len(rr.entries), r.Len())
	}
	h := uint64(7)
	for range 100000 {
		h += 0x9e3779b97f4a7c15
		if i, _ := r.Pick(h, 0); rr.pick(h).address != r.Hosts[i].Host.Address {
			t.Fatalf("ring h=%d: lbctl %s, reference %s", h, r.Hosts[i].Host.Address, rr.pick(h).address)
		}
		if i, _ := m.Pick(h, 0); rm.pick(h).address != m.Hosts[i].Host.Address {
			t.Fatalf("maglev h=%d: lbctl %s, reference %s", h, m.Hosts[i].Host.Address, rm.pick(h).address)
		}
	}
}
