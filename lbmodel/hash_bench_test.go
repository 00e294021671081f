package lbmodel

import (
	"fmt"
	"testing"
)

func benchHosts(n int) []Host {
	hs := make([]Host, n)
	for i := range hs {
		hs[i] = Host{Address: fmt.Sprintf("10.%d.%d.%d:8080", i>>16, (i>>8)&255, i&255), Weight: 1}
	}
	return hs
}

func benchMaglev(b *testing.B, n int) {
	nw, _ := NormalizeWeights(benchHosts(n), NormalizeOptions{})
	for b.Loop() {
		if _, err := BuildMaglev(nw, DefaultMaglevConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMaglevBuild100(b *testing.B)  { benchMaglev(b, 100) }
func BenchmarkMaglevBuild1000(b *testing.B) { benchMaglev(b, 1000) }

func benchRing(b *testing.B, minRing uint64) {
	nw, _ := NormalizeWeights(benchHosts(100), NormalizeOptions{})
	cfg := DefaultRingConfig()
	cfg.MinRingSize = minRing
	for b.Loop() {
		if _, err := BuildRing(nw, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRingBuild100Hosts1K(b *testing.B)   { benchRing(b, 1024) }
func BenchmarkRingBuild100Hosts256K(b *testing.B) { benchRing(b, 256*1024) }

func BenchmarkRingLookup256K(b *testing.B) {
	nw, _ := NormalizeWeights(benchHosts(100), NormalizeOptions{})
	cfg := DefaultRingConfig()
	cfg.MinRingSize = 256 * 1024
	r, _ := BuildRing(nw, cfg)
	h := uint64(0)
	for b.Loop() {
		h += 0x9e3779b97f4a7c15
		r.Pick(h, 0)
	}
}

func BenchmarkMaglevLookup(b *testing.B) {
	nw, _ := NormalizeWeights(benchHosts(100), NormalizeOptions{})
	m, _ := BuildMaglev(nw, DefaultMaglevConfig())
	h := uint64(0)
	for b.Loop() {
		h += 0x9e3779b97f4a7c15
		m.Pick(h, 0)
	}
}
