package lbmodel

import (
	"errors"
	"math"
	"slices"
	"time"
)

// ClientSideWRRConfig is client_side_weighted_round_robin's timing
// (ClientSideWeightedRoundRobinLbConfig, client_side_weighted_round_robin_lb.cc).
// Zero durations mean the defaults; set the *Set flag for an explicit 0.
type ClientSideWRRConfig struct {
	BlackoutPeriod, WeightExpirationPeriod time.Duration
	BlackoutSet, ExpirationSet             bool
	ErrorUtilizationPenalty                float64
}

// Defaults: blackout_period 10 s, weight_expiration_period 180 s
// (weight_update_period, 1 s, only sets how often they are applied).
const (
	DefaultCSWRRBlackout   = 10 * time.Second
	DefaultCSWRRExpiration = 180 * time.Second
)

func (c ClientSideWRRConfig) blackout() time.Duration {
	if c.BlackoutSet || c.BlackoutPeriod != 0 {
		return c.BlackoutPeriod.Truncate(time.Millisecond)
	}
	return DefaultCSWRRBlackout
}

func (c ClientSideWRRConfig) expiration() time.Duration {
	if c.ExpirationSet || c.WeightExpirationPeriod != 0 {
		return c.WeightExpirationPeriod.Truncate(time.Millisecond)
	}
	return DefaultCSWRRExpiration
}

// OrcaReport is the part of an ORCA load report the weight uses.
type OrcaReport struct {
	RPSFractional, EPS                     float64
	ApplicationUtilization, CPUUtilization float64
	// MaxNamedUtilization is the largest of the metrics named in
	// metric_names_for_computing_utilization (Orca::getMaxUtilization).
	MaxNamedUtilization float64
}

// OrcaWeight is OrcaLoadReportHandler::calculateWeightFromOrcaReport:
// utilization is application_utilization if > 0, else the named maximum if
// > 0, else cpu_utilization; plus penalty·eps/qps; weight = qps/utilization,
// capped at 2^32−1 and truncated to an integer. qps <= 0 or utilization <= 0
// is an error: the report is ignored.
func OrcaWeight(r OrcaReport, penalty float64) (uint32, error) {
	qps := r.RPSFractional
	if !(qps > 0) {
		return 0, errors.New("QPS must be positive")
	}
	u := r.ApplicationUtilization
	if !(u > 0) {
		u = r.MaxNamedUtilization
		if !(u > 0) {
			u = r.CPUUtilization
		}
	}
	u += penalty * r.EPS / qps
	if !(u > 0) {
		return 0, errors.New("utilization must be positive")
	}
	w := qps / u
	if w > math.MaxUint32 {
		w = math.MaxUint32
	}
	return uint32(w), nil
}

// ReportedWeight is what a host's ClientSideHostLbPolicyData holds: the
// last computed weight, how long ago the first report of the current run
// arrived (non_empty_since) and how long ago the last one did.
type ReportedWeight struct {
	Weight         uint32
	FirstReportAgo time.Duration
	LastReportAgo  time.Duration
}

// Valid is ClientSideHostLbPolicyData::getWeightIfValid: the first report
// is at least blackout_period old and the last at most
// weight_expiration_period old (both bounds inclusive).
func (r ReportedWeight) Valid(c ClientSideWRRConfig) bool {
	return r.FirstReportAgo >= c.blackout() && r.LastReportAgo <= c.expiration()
}

// ClientSideWRRWeights is updateWeightsOnHosts for one priority's hosts
// (reports parallel to them; nil: no report): a host with a valid weight
// gets it, every other host the median of the valid weights (the element
// at index len/2 after sorting, so the upper median), or 1 when none is
// valid; HostImpl::weight then raises 0 to 1. EDS weights never count.
func ClientSideWRRWeights(reports []*ReportedWeight, c ClientSideWRRConfig) []uint32 {
	out := make([]uint32, len(reports))
	var valid []uint32
	for _, r := range reports {
		if r != nil && r.Valid(c) {
			valid = append(valid, r.Weight)
		}
	}
	def := uint32(1)
	if len(valid) > 0 {
		s := slices.Clone(valid)
		slices.Sort(s)
		def = s[len(s)/2]
	}
	for i, r := range reports {
		w := def
		if r != nil && r.Valid(c) {
			w = r.Weight
		}
		out[i] = max(1, w)
	}
	return out
}

// ClientSideWRRShares is a host source's shares under client-side WRR:
// the worker is a RoundRobinLoadBalancer whose host weights are the ones
// above and whose schedulers are rebuilt when they change, so round robin
// on them (equal shares when no host has a valid report).
func ClientSideWRRShares(weights []uint32) []float64 { return RoundRobinShares(weights) }
