package lbmodel

import (
	"math"
	"strconv"
)

// CleanFloat drops the artefacts of float arithmetic in a value meant for
// people and JSON (1.0000000000000002, 0.30000000000000004,
// 0.999999999999999): when the value is within 1e-14 (relative) of its
// rounding to 12 significant digits, that rounding is the value; otherwise
// (1/3) the full precision stays. The error is far below the 1e-9 every
// share is checked to.
func CleanFloat(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	var buf [32]byte // 12 digits, sign, point, exponent: no allocation
	r, err := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], v, 'g', 12, 64)), 64)
	if err != nil || math.Abs(r-v) > 1e-14*math.Abs(v) {
		return v
	}
	return r
}

// CleanFraction is CleanFloat kept in [0, 1], for shares.
func CleanFraction(v float64) float64 {
	return CleanFloat(min(1, max(0, v)))
}
