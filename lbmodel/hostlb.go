package lbmodel

import (
	"errors"
	"fmt"
	"math"
)

// Policy is the host-level load-balancing policy inside a host source.
type Policy int

const (
	PolicyRoundRobin Policy = iota
	PolicyLeastRequest
	PolicyRandom
	// PolicyPrecomputed is RING_HASH or MAGLEV: the per-host shares of a
	// source come from HostLB.Precomputed (the ring/table engineer's code).
	PolicyPrecomputed
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

// HostLB is the host-level policy and its inputs.
type HostLB struct {
	Policy       Policy
	LeastRequest LeastRequestConfig
	// ActiveRequests is rq_active per host, parallel to the cluster's Hosts
	// (nil: all 0). Used by least request only.
	ActiveRequests []uint64
	// Precomputed returns each source host's share of that source for
	// PolicyPrecomputed (e.g. ring or Maglev table shares).
	Precomputed func(source []Host) ([]float64, error)
}

// RoundRobinShares is round robin's long-run share per host of a source:
// unweighted rotation (1/n) when all weights are equal, whatever their
// value, otherwise the EDF on host weight, w_i/Σw
// (EdfLoadBalancerBase::refresh, hostWeightsAreEqual). Weights below 1 count
// as 1 (HostImplBase::weight).
func RoundRobinShares(weights []uint32) []float64 {
	out := make([]float64, len(weights))
	if len(weights) == 0 {
		return out
	}
	if allEqual(weights) {
		for i := range out {
			out[i] = 1 / float64(len(weights))
		}
		return out
	}
	var sum float64
	for _, w := range weights {
		sum += float64(max(1, w))
	}
	for i, w := range weights {
		out[i] = float64(max(1, w)) / sum
	}
	return out
}

func allEqual(w []uint32) bool {
	for _, x := range w {
		if max(1, x) != max(1, w[0]) {
			return false
		}
	}
	return true
}

// NChoicesShares is the exact pick probability of
// LeastRequestLoadBalancer::unweightedHostPickNChoices: k independent draws
// random%n with replacement, a later draw replacing the candidate only with
// strictly fewer active requests. For a host with L hosts below its count
// and E hosts at it: P = ((n−L)^k − (n−L−E)^k) / (n^k·E). The modulo bias
// of a 64-bit random is ignored.
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
		hi := float64(n-less) / float64(n)
		lo := float64(n-less-eq) / float64(n)
		out[i] = (math.Pow(hi, float64(k)) - math.Pow(lo, float64(k))) / float64(eq)
	}
	return out
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
	if c.Weighted(weights) {
		bias := c.effectiveBias()
		var sum float64
		for i, w := range weights {
			out[i] = LeastRequestWeight(w, active[i], bias)
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

// sourceShares applies the host-level policy to one host source (indices
// into hosts). It returns each source host's share of the source.
// b is the priority bucket the request's hash fell in (Random reuses it).
func (lb HostLB) sourceShares(hosts []Host, src []int, b Bucket) ([]float64, error) {
	if len(src) == 0 {
		return nil, nil
	}
	weights := make([]uint32, len(src))
	for i, h := range src {
		weights[i] = hosts[h].Weight
	}
	switch lb.Policy {
	case PolicyRoundRobin:
		return RoundRobinShares(weights), nil
	case PolicyRandom:
		return RandomSharesGiven(len(src), b), nil
	case PolicyLeastRequest:
		active := make([]uint64, len(src))
		if lb.ActiveRequests != nil {
			if len(lb.ActiveRequests) != len(hosts) {
				return nil, errors.New("least request: ActiveRequests is not parallel to Hosts")
			}
			for i, h := range src {
				active[i] = lb.ActiveRequests[h]
			}
		}
		return LeastRequestShares(weights, active, lb.LeastRequest)
	case PolicyPrecomputed:
		if lb.Precomputed == nil {
			return nil, errors.New("precomputed policy without a Precomputed function")
		}
		sh := make([]Host, len(src))
		for i, h := range src {
			sh[i] = hosts[h]
		}
		out, err := lb.Precomputed(sh)
		if err != nil {
			return nil, err
		}
		if len(out) != len(src) {
			return nil, errors.New("precomputed shares: wrong length")
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown host policy %d", lb.Policy)
}
