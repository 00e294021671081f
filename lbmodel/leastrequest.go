package lbmodel

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// DefaultChoiceCount is least_request_lb_config.choice_count's default.
const DefaultChoiceCount = 2

// LeastRequestConfig is the LeastRequest policy's configuration.
type LeastRequestConfig struct {
	ChoiceCount uint32 // 0 means the default 2; Envoy rejects 1
	FullScan    bool   // selection_method: FULL_SCAN
	// ActiveRequestBias is active_request_bias (default 1.0). When set
	// explicitly, newest Envoy uses the weighted (EDF) path even with equal
	// weights (runtime guard
	// least_request_lb_active_request_bias_forces_weighted, default true).
	ActiveRequestBias    float64
	ActiveRequestBiasSet bool
}

// NChoicesShares is the exact pick probability of
// LeastRequestLoadBalancer::unweightedHostPickNChoices (least_request_lb.cc):
// k independent draws random%n with replacement, a later draw replacing the
// candidate only with strictly fewer active requests, so ties go to the
// earliest draw. For a host with L hosts below its count and E hosts at
// it: P = ((n−L)^k − (n−L−E)^k) / (n^k·E), computed in integers with one
// rounding. The modulo bias of a 64-bit random is ignored.
func NChoicesShares(active []uint64, k uint32) []float64 {
	n := len(active)
	out := make([]float64, n)
	for i, a := range active {
		less, eq := 0, 0
		for _, b := range active {
			if b < a {
				less++
			} else if b == a {
				eq++
			}
		}
		out[i] = nChoicesP(n, less, eq, k)
	}
	return out
}

func nChoicesP(n, less, eq int, k uint32) float64 {
	if k > 4096 { // exact powers would be too large; float is then ample
		hi := float64(n-less) / float64(n)
		lo := float64(n-less-eq) / float64(n)
		return (math.Pow(hi, float64(k)) - math.Pow(lo, float64(k))) / float64(eq)
	}
	kk := big.NewInt(int64(k))
	pow := func(x int) *big.Int { return new(big.Int).Exp(big.NewInt(int64(x)), kk, nil) }
	num := new(big.Int).Sub(pow(n-less), pow(n-less-eq))
	den := new(big.Int).Mul(pow(n), big.NewInt(int64(eq)))
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

// FullScanShares is unweightedHostPickFullScan: the minimum active count,
// ties broken by reservoir sampling, so 1/E over the E hosts at the minimum.
func FullScanShares(active []uint64) []float64 {
	out := make([]float64, len(active))
	if len(active) == 0 {
		return out
	}
	m := active[0]
	for _, a := range active {
		m = min(m, a)
	}
	e := 0
	for _, a := range active {
		if a == m {
			e++
		}
	}
	for i, a := range active {
		if a == m {
			out[i] = 1 / float64(e)
		}
	}
	return out
}

// LeastRequestWeight is LeastRequestLoadBalancer::hostWeight without slow
// start: weight/(active+1)^bias, weight/(active+1) when bias is 1, the plain
// weight when bias is 0; the +1 is skipped at the uint64 maximum.
func LeastRequestWeight(weight uint32, active uint64, bias float64) float64 {
	w := float64(max(1, weight))
	a := active
	if a != math.MaxUint64 {
		a++
	}
	switch bias {
	case 1.0:
		return w / float64(a)
	case 0.0:
		return w
	}
	return w / math.Pow(float64(a), bias)
}

// effectiveBias is the cached active_request_bias: unset, negative or NaN
// become 1.0.
func (c LeastRequestConfig) effectiveBias() float64 {
	if !c.ActiveRequestBiasSet || c.ActiveRequestBias < 0 || math.IsNaN(c.ActiveRequestBias) {
		return 1.0
	}
	return c.ActiveRequestBias
}

// Weighted reports whether least request uses the EDF path for a source
// with these weights: weights differ, or the bias is explicit; and more
// than one host.
func (c LeastRequestConfig) Weighted(weights []uint32) bool {
	return len(weights) > 1 && (!allEqual(weights) || c.ActiveRequestBiasSet)
}

// LeastRequestShares is the least-request long-run share per host of a
// source: the EDF on LeastRequestWeight when Weighted, else N_CHOICES or
// FULL_SCAN.
func LeastRequestShares(weights []uint32, active []uint64, c LeastRequestConfig) ([]float64, error) {
	return LeastRequestSlowStartShares(weights, active, c, nil)
}

// LeastRequestSlowStartShares is LeastRequestShares while slow start is in
// effect for the load balancer (SlowStartConfig.InSlowStart) when factors is
// not nil: then the EDF is used even with equal weights and each host's
// weight/(active+1)^bias is multiplied by its factor
// (LeastRequestLoadBalancer::hostWeight; factors parallel to weights, 1 for
// hosts past the window or not healthy). nil factors: no slow start.
func LeastRequestSlowStartShares(weights []uint32, active []uint64, c LeastRequestConfig, factors []float64) ([]float64, error) {
	if factors != nil && len(factors) != len(weights) {
		return nil, errors.New("least request: factors and weights differ in length")
	}
	if len(active) != len(weights) {
		return nil, errors.New("least request: active and weights differ in length")
	}
	k := c.ChoiceCount
	if k == 0 {
		k = DefaultChoiceCount
	}
	if k < 2 {
		return nil, fmt.Errorf("least request: choice_count %d, Envoy requires >= 2", k)
	}
	out := make([]float64, len(weights))
	if len(weights) == 0 {
		return out, nil
	}
	if c.Weighted(weights) || (factors != nil && len(weights) > 1) {
		bias := c.effectiveBias()
		var sum float64
		for i, w := range weights {
			out[i] = LeastRequestWeight(w, active[i], bias)
			if factors != nil {
				out[i] *= factors[i]
			}
			sum += out[i]
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return nil, errors.New("least request: effective weights do not sum to a positive finite value")
		}
		for i := range out {
			out[i] /= sum
		}
		return out, nil
	}
	if c.FullScan {
		return FullScanShares(active), nil
	}
	return NChoicesShares(active, k), nil
}
