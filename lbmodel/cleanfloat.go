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
	r, ok := round12(v)
	if !ok {
		var buf [32]byte // 12 digits, sign, point, exponent: no allocation
		var err error
		r, err = strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], v, 'g', 12, 64)), 64)
		if err != nil {
			return v
		}
	}
	if math.Abs(r-v) > 1e-14*math.Abs(v) {
		return v
	}
	return r
}

// CleanFraction is CleanFloat kept in [0, 1], for shares.
func CleanFraction(v float64) float64 {
	return CleanFloat(min(1, max(0, v)))
}

// pow10 holds the powers of ten float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// round12 is v rounded to 12 significant digits and read back, as
// ParseFloat(FormatFloat(v, 'g', 12, 64)) gives it, without the text (a
// 100k-host report cleans 100k shares): the 12 digits are n = round(|v|·10^k)
// with n < 10^12, and n/10^k is one correctly rounded division when 10^k
// is exact (Clinger's fast path, which strconv takes too). ok is false
// where that does not hold or the product lies too near a rounding tie to
// decide it (the product's error is under 2^-14): then the caller formats.
func round12(v float64) (float64, bool) {
	a := math.Abs(v)
	if a < 1e-10 || a >= 1e11 {
		return 0, false
	}
	k := 11 - int(math.Floor(math.Log10(a)))
	if k < 0 || k >= len(pow10) {
		return 0, false
	}
	m := a * pow10[k]
	if m < 1e11 || m >= 1e12 { // Log10 off by one at a power of ten
		return 0, false
	}
	n := math.Round(m)
	if math.Abs(m-n) > 0.5-1e-3 {
		return 0, false
	}
	return math.Copysign(n/pow10[k], v), true
}
