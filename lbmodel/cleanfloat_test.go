package lbmodel

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestCleanFloat(t *testing.T) {
	for in, want := range map[float64]float64{
		0.1 + 0.2: 0.3, 0.7 + 0.2 + 0.1: 1, 1.0 / 3: 1.0 / 3, 0.1: 0.1, 3 * 0.35: 1.05,
		0.999999999999999: 1, 1.0000000000000009: 1, 0.33340000000000003: 0.3334, 2.0 / 3: 2.0 / 3,
		1e-12 / 3: 1e-12 / 3, 123456.78901234: 123456.78901234,
	} {
		if got := CleanFloat(in); got != want {
			t.Errorf("CleanFloat(%v) = %v, want %v", in, got, want)
		}
	}
	if CleanFraction(1.0000000000000002) != 1 || CleanFraction(-1e-18) != 0 {
		t.Error("CleanFraction does not clamp")
	}
}

// cleanBySprint is CleanFloat through the text, as it was written first.
func cleanBySprint(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil || math.Abs(r-v) > 1e-14*math.Abs(v) {
		return v
	}
	return r
}

// The arithmetic rounding (round12) gives the text's answer bit for bit:
// random values of every magnitude, shares k/n, ring arcs, values at and
// next to 12-digit rounding ties and powers of ten.
func TestCleanFloatMatchesText(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(v float64) {
		t.Helper()
		for _, x := range []float64{v, -v, math.Nextafter(v, 0), math.Nextafter(v, 2*v+1)} {
			if got, want := CleanFloat(x), cleanBySprint(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("CleanFloat(%v) = %v, text gives %v", x, got, want)
			}
		}
	}
	for range 200000 {
		check(rng.Float64())
		check(math.Ldexp(rng.Float64(), rng.IntN(120)-80))
		n := 1 + rng.IntN(1000000)
		check(float64(1+rng.IntN(n)) / float64(n))
		check(float64(rng.Uint64()>>11) / (1 << 53) * float64(rng.IntN(7)+1) / 7)
		// a 12-digit tie: d.5 · 10^-k
		k := rng.IntN(22)
		check((float64(100000000000+rng.IntN(900000000000)) + 0.5) / pow10[k])
	}
	for k := range pow10 {
		check(pow10[k])
		check(1 / pow10[k])
	}
	if !testing.Short() {
		for i := 1; i <= 65537; i++ { // every Maglev share of the default table
			check(float64(i) / 65537)
		}
	}
}
