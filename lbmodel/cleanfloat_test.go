package lbmodel

import "testing"

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
