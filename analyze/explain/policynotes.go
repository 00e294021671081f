package explain

import (
	"fmt"
	"slices"
	"time"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// policyNotes explain the host-picking policy's own inputs: what Envoy
// knows only at run time, and what a what-if flag assumed.
func policyNotes(m *model.Model, s model.LBSettings, in lbmodel.ClusterInput, hp *model.HostPolicy, opt model.Options) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	switch m.Policy {
	case "CLIENT_SIDE_WEIGHTED_ROUND_ROBIN", "WRR_LOCALITY":
		if m.Policy == "WRR_LOCALITY" {
			add("wrr_locality: localities are picked by their load_balancing_weight (locality-weighted balancing is on), then hosts inside a locality by client_side_weighted_round_robin")
		}
		bo := s.CSWRR.BlackoutPeriod
		if !s.CSWRR.BlackoutSet && bo == 0 {
			bo = lbmodel.DefaultCSWRRBlackout
		}
		if len(opt.HostWeights) == 0 {
			add("client_side_weighted_round_robin weighs hosts by ORCA load reports (qps / utilization), not by EDS load_balancing_weight: without reports every host weight is 1, so hosts share equally; a host's reported weight counts only after the blackout period (%s) and hosts without one get the median (pass %s ADDRESS=W to model reports)", bo, option.HostWeight)
		} else {
			add("what-if (%s): the named hosts report those weights (past the %s blackout period); every other host of the same priority gets the median of the reported weights, as updateWeightsOnHosts does", option.HostWeight, bo)
		}
		if p := s.CSWRR.ErrorUtilizationPenalty; p != 0 {
			add("error_utilization_penalty %g: a reported weight is qps / (utilization + %g × eps/qps), so a host returning errors is weighted down", p, p)
		}
	case "LEAST_REQUEST":
		k := s.LeastRequest.ChoiceCount
		if k == 0 {
			k = lbmodel.DefaultChoiceCount
		}
		weights := make([]uint32, len(m.Hosts))
		for i, h := range m.Hosts {
			weights[i] = h.Weight
		}
		switch {
		case s.LeastRequest.Weighted(weights):
			add("least request with unequal weights or an explicit active_request_bias: hosts are scheduled by weight / (active requests + 1)^%g", biasOf(s.LeastRequest))
		case s.LeastRequest.FullScan:
			add("least request with FULL_SCAN: every pick takes the host with the fewest active requests, ties split evenly")
		default:
			add("least request with equal weights: each pick samples %d hosts at random (with replacement) and takes the one with the fewest active requests, the first sampled on a tie", k)
		}
		if in.LB.ActiveRequests == nil {
			add("least request shares assume no active requests (pass %s ADDRESS=N to model load)", option.ActiveRequests)
		}
	case "RANDOM":
		add("random: one random number picks both the priority and the host, so shares inside a priority are exact to its host count and the priority's slice of 1..100")
	case "RING_HASH", "MAGLEV":
		if s.LocalityWeighted {
			add("locality weights are folded into each host's weight in the %s (normalizeWeights): a host's share is its weight within its locality times the locality's weight share", map[bool]string{true: "ring", false: "Maglev table"}[m.Policy == "RING_HASH"])
		}
		if f := s.HashBalanceFactor; f > 0 {
			add("hash_balance_factor %d (bounded load): a host may hold at most ceil(((A+1)×%d/100) × its normalized weight) of the cluster's A active requests, e.g. %d with 100 active on a host of weight 1/%d; a lookup that lands on a fuller host moves on along the %s, so shares under load are flatter than shown", f, f, hash.BoundedLoadSlots(100, f, 1/float64(max(1, len(m.Hosts)))), max(1, len(m.Hosts)), map[bool]string{true: "ring", false: "table"}[m.Policy == "RING_HASH"])
		}
	}
	if s.SlowStart.Enabled() && slices.Contains([]string{"ROUND_ROBIN", "LEAST_REQUEST", "CLIENT_SIDE_WEIGHTED_ROUND_ROBIN", "WRR_LOCALITY"}, m.Policy) {
		a := 1.0
		if s.SlowStart.AggressionSet && s.SlowStart.Aggression > 0 {
			a = s.SlowStart.Aggression
		}
		mw := 10.0
		if s.SlowStart.MinWeightPercentSet {
			mw = s.SlowStart.MinWeightPercent
		}
		if len(opt.HostAges) == 0 {
			add("slow start (window %s, aggression %g, min_weight_percent %g): a host that became healthy less than %s ago gets weight × max((age/window)^(1/%g), %g%%); shares assume every host is past the window (pass %s ADDRESS=DURATION)", s.SlowStart.Window, a, mw, s.SlowStart.Window, a, mw, option.HostAge)
		} else {
			for _, h := range m.Hosts { // host order: deterministic notes
				if age, ok := opt.HostAges[h.Address]; ok && age < s.SlowStart.Window {
					add("what-if (%s): %s became healthy %s ago, inside the %s slow-start window: its weight is multiplied by %.4g", option.HostAge, h.Address, age.Round(time.Millisecond), s.SlowStart.Window, s.SlowStart.Factor(age))
				}
			}
		}
	}
	if hp.RequestTime != "" {
		add("host shares are not computed for %s: %s; priority loads and panic still hold as shown", m.Policy, hp.RequestTime)
	}
	return out
}

func biasOf(c lbmodel.LeastRequestConfig) float64 {
	if !c.ActiveRequestBiasSet || c.ActiveRequestBias < 0 {
		return 1
	}
	return c.ActiveRequestBias
}
