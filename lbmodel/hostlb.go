package lbmodel

import (
	"errors"
	"fmt"
	"time"
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
	// PolicyClientSideWRR is client_side_weighted_round_robin: round robin
	// on HostLB.ClientSideWeights instead of the EDS weights.
	PolicyClientSideWRR
)

// HostLB is the host-level policy and its inputs.
type HostLB struct {
	Policy       Policy
	LeastRequest LeastRequestConfig
	// ActiveRequests is rq_active per host, parallel to the cluster's Hosts
	// (nil: all 0). Used by least request only.
	ActiveRequests []uint64
	// Precomputed returns each source host's share of that source for
	// PolicyPrecomputed (e.g. ring or Maglev table shares); all is the
	// cluster's hosts as this computation sees them (a what-if's health
	// included), of which source is a part.
	Precomputed func(all, source []Host) ([]float64, error)
	// SlowStart and HostAges (time since each host's last health-check
	// pass or addition, parallel to the cluster's Hosts; nil: all past the
	// window) apply to round robin, least request and client-side WRR.
	SlowStart SlowStartConfig
	HostAges  []time.Duration
	// ClientSideWeights are the host weights client-side WRR has set,
	// parallel to Hosts (see ClientSideWRRWeights; nil: all 1).
	ClientSideWeights []uint32
}

// slowStartFactors returns each source host's slow-start factor, or nil
// when no host of the cluster is in slow start.
func (lb HostLB) slowStartFactors(hosts []Host, src []int) ([]float64, error) {
	if lb.HostAges == nil || !lb.SlowStart.Enabled() {
		return nil, nil
	}
	if len(lb.HostAges) != len(hosts) {
		return nil, errors.New("slow start: HostAges is not parallel to Hosts")
	}
	healthy := make([]bool, len(hosts))
	for i, h := range hosts {
		healthy[i] = h.Health() == Healthy
	}
	if !lb.SlowStart.InSlowStart(lb.HostAges, healthy) {
		return nil, nil
	}
	f := make([]float64, len(src))
	for i, h := range src {
		f[i] = 1
		if healthy[h] {
			f[i] = lb.SlowStart.Factor(lb.HostAges[h])
		}
	}
	return f, nil
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
		f, err := lb.slowStartFactors(hosts, src)
		if err != nil || f == nil || len(src) == 1 {
			return RoundRobinShares(weights), err
		}
		return RoundRobinSlowStartShares(weights, f), nil
	case PolicyClientSideWRR:
		// The worker is a RoundRobinLoadBalancer on the client-side
		// weights, with CSWRR's own slow_start_config.
		if lb.ClientSideWeights != nil {
			if len(lb.ClientSideWeights) != len(hosts) {
				return nil, errors.New("client-side WRR: ClientSideWeights is not parallel to Hosts")
			}
			for i, h := range src {
				weights[i] = lb.ClientSideWeights[h]
			}
		} else {
			for i := range weights {
				weights[i] = 1
			}
		}
		f, err := lb.slowStartFactors(hosts, src)
		if err != nil || f == nil || len(src) == 1 {
			return RoundRobinShares(weights), err
		}
		return RoundRobinSlowStartShares(weights, f), nil
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
		f, err := lb.slowStartFactors(hosts, src)
		if err != nil {
			return nil, err
		}
		return LeastRequestSlowStartShares(weights, active, lb.LeastRequest, f)
	case PolicyPrecomputed:
		if lb.Precomputed == nil {
			return nil, errors.New("precomputed policy without a Precomputed function")
		}
		sh := make([]Host, len(src))
		for i, h := range src {
			sh[i] = hosts[h]
		}
		out, err := lb.Precomputed(hosts, sh)
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
