package model

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/failure"
	"github.com/lbctl/lbctl/lbmodel/hash"

	"github.com/lbctl/lbctl/analyze/config"
)

// HostPolicy says how host shares inside a host source are computed.
type HostPolicy struct {
	LB lbmodel.HostLB
	// Computable is false for policies whose host choice lbctl cannot
	// model from config (CLUSTER_PROVIDED, ORIGINAL_DST, unknown ones).
	Computable bool
	// RequestTime describes a policy that picks hosts per request from
	// inputs config does not hold ("" otherwise).
	RequestTime string
}

// Input builds lbmodel's input for a non-aggregate cluster, where local
// is this Envoy's place (LocalOf); a cluster Envoy rejects is a
// *RejectedError.
func Input(cl *config.Cluster, m *Model, s LBSettings, local Local, opt Options) (lbmodel.ClusterInput, *HostPolicy, error) {
	in := lbmodel.ClusterInput{
		Hosts:                  m.Hosts,
		OverprovisioningFactor: m.OverprovisioningFactor,
		WeightedPriorityHealth: m.WeightedPriorityHealth,
		PanicThreshold:         m.PanicThreshold,
		LocalityWeighted:       s.LocalityWeighted,
		ZoneAware:              s.ZoneAware,
	}
	// A configuration Envoy rejects at load has no traffic to show.
	if err := s.Rejection(cl); err != nil {
		return in, nil, err
	}
	hp := &HostPolicy{Computable: true}
	switch m.Policy {
	case "ROUND_ROBIN":
		hp.LB.Policy = lbmodel.PolicyRoundRobin
		hp.LB.SlowStart = s.SlowStart
		hp.LB.HostAges = hostAges(m.Hosts, opt.HostAges)
	case "CLIENT_SIDE_WEIGHTED_ROUND_ROBIN", "WRR_LOCALITY":
		hp.LB.Policy = lbmodel.PolicyClientSideWRR
		hp.LB.ClientSideWeights = clientSideWeights(m.Hosts, opt.HostWeights, s.CSWRR)
		// The worker is a RoundRobinLoadBalancer given CSWRR's
		// slow_start_config (client_side_weighted_round_robin_lb.cc,
		// getRoundRobinConfig).
		hp.LB.SlowStart = s.SlowStart
		hp.LB.HostAges = hostAges(m.Hosts, opt.HostAges)
	case "LEAST_REQUEST":
		hp.LB.Policy = lbmodel.PolicyLeastRequest
		hp.LB.LeastRequest = s.LeastRequest
		hp.LB.SlowStart = s.SlowStart
		hp.LB.HostAges = hostAges(m.Hosts, opt.HostAges)
		if len(opt.ActiveRequests) > 0 {
			hp.LB.ActiveRequests = make([]uint64, len(m.Hosts))
			for i, h := range m.Hosts {
				hp.LB.ActiveRequests[i] = opt.ActiveRequests[h.Address]
			}
		}
	case "RANDOM":
		hp.LB.Policy = lbmodel.PolicyRandom
	case "RING_HASH", "MAGLEV":
		hp.LB.Policy = lbmodel.PolicyPrecomputed
		policy, ring, maglev, locality := m.Policy, s.Ring, s.Maglev, s.LocalityWeighted
		// RingHashLoadBalancer and MaglevLoadBalancer throw on an invalid
		// size at construction: Envoy rejects the cluster.
		if re := s.HashSizeRejection(cl, policy); re != nil {
			return in, nil, re
		}
		hosts := m.Hosts
		// The node's own locality comes first in hostsPerLocality, which
		// orders the table's hosts (as placement.Build does).
		node := local.Locality
		tables := m.Tables()
		hp.LB.Precomputed = func(all, source []lbmodel.Host) ([]float64, error) {
			// The priority's hosts are all's: a sweep steps health on its own
			// copy, in place, so only the model's hosts may use the cache.
			t := tables
			if len(all) != len(hosts) || len(all) > 0 && &all[0] != &hosts[0] {
				t = nil
			}
			return hashShares(t, policy, all, source, ring, maglev, locality, node, m.EmptyLocalityWeight)
		}
		// ThreadAwareLoadBalancerBase builds one table per priority over
		// its healthy hosts (all in panic) with locality weights folded
		// into host weights (normalizeWeights): no locality pick first,
		// and no zone-aware routing.
		in.LocalityWeighted = false
	default:
		hp.Computable = false
		hp.RequestTime = RequestTimePolicy(m.Policy)
		hp.LB.Policy = lbmodel.PolicyRandom // priority loads still hold; host shares are not shown
	}
	in.LB = hp.LB
	if m.Policy == "WRR_LOCALITY" {
		in = lbmodel.WrrLocalityInput(in, hp.LB.ClientSideWeights)
	}

	in.NodeLocality, in.HasNodeLocality = local.node(), local.LocalityKnown
	if local.Cluster != "" && local.Cluster != m.Name && !m.IsAggregate && !IsHashPolicy(m.Policy) {
		if local.ClusterDefined && local.LocalityKnown {
			in.HasLocalCluster = true
			in.LocalCluster = local.Hosts
		}
	}
	return in, hp, nil
}

// hashShares is each source host's share of the ring or Maglev table Envoy
// builds over that source: the priority's healthy hosts, or all of them in
// panic. normalizeWeights (thread_aware_lb_impl.cc) sums the locality
// weights of every locality of the priority, those without a healthy host
// included, which sets the smallest normalized weight and so the ring size:
// it is given all of the priority's hosts. Tables are built once per
// cluster and shared with the notes.
func hashShares(tables *hash.TableCache, policy string, all, source []lbmodel.Host, ring hash.RingConfig, maglev hash.MaglevConfig, locality bool, local *lbmodel.Locality, empty map[int]uint64) ([]float64, error) {
	out := make([]float64, len(source))
	if len(source) == 0 {
		return out, nil
	}
	level := PriorityHosts(all, source[0].Priority)
	// The source is every host of the priority only in panic (or when all
	// are healthy, where both readings agree).
	panic := len(source) == len(level)
	nw, err := tables.Normalize(level, hash.NormalizeOptions{LocalityWeighted: locality, Panic: panic, LocalLocality: local, EmptyLocalityWeight: empty[source[0].Priority]})
	if err != nil {
		return nil, err
	}
	var hs []hash.HostShare
	switch policy {
	case "RING_HASH":
		r, err := tables.Ring(nw, ring)
		if err != nil {
			return nil, err
		}
		hs = r.Shares()
	default:
		t, err := tables.MaglevCounts(nw, maglev) // shares need no slots
		if err != nil {
			return nil, err
		}
		hs = t.Shares()
	}
	return hash.SharesByAddress(source, hs), nil
}

// PriorityHosts is the hosts of priority p in order: a subslice of all
// when they are contiguous (hosts of a priority usually are; no copy),
// else a copy.
func PriorityHosts(all []lbmodel.Host, p int) []lbmodel.Host {
	first, last, n := -1, -1, 0
	for i := range all {
		if all[i].Priority == p {
			if first < 0 {
				first = i
			}
			last = i
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if last-first+1 == n {
		return all[first : last+1 : last+1]
	}
	level := make([]lbmodel.Host, 0, n)
	for i := range all {
		if all[i].Priority == p {
			level = append(level, all[i])
		}
	}
	return level
}

// HealthOverride is one --set-health what-if.
type HealthOverride struct {
	Spec     string
	Cluster  string
	Priority int // -1: every priority
	// Healthy of Total, or Percent when Total is 0.
	Healthy, Total int
	Percent        float64
}

// apply makes the override's share of the hosts healthy (the first in file
// order) and the rest unhealthy, and describes what it did.
func (o HealthOverride) apply(hosts []lbmodel.Host) (string, error) {
	var idx []int
	for i, h := range hosts {
		if o.Priority < 0 || h.Priority == o.Priority {
			idx = append(idx, i)
		}
	}
	n := len(idx)
	if n == 0 {
		return "", fmt.Errorf("%s %s: cluster %q has no hosts at that priority", option.SetHealth, config.Safe(o.Spec), o.Cluster)
	}
	healthy := 0
	if o.Total > 0 {
		if o.Total != n {
			return "", fmt.Errorf("%s %s: that priority has %d hosts, not %d", option.SetHealth, config.Safe(o.Spec), n, o.Total)
		}
		healthy = o.Healthy
	} else {
		// Round half up: 50% of 3 hosts is 2.
		healthy = int(o.Percent*float64(n)/100 + 0.5)
	}
	for k, i := range idx {
		if k < healthy {
			hosts[i].Status = lbmodel.StatusHealthy
		} else {
			hosts[i].Status = lbmodel.StatusUnhealthy
		}
	}
	where := "every priority"
	if o.Priority >= 0 {
		where = fmt.Sprintf("P%d", o.Priority)
	}
	return fmt.Sprintf("what-if (%s %s): %s of %s has %d of %d hosts healthy, the rest unhealthy", option.SetHealth, config.Safe(o.Spec), where, config.Safe(o.Cluster), healthy, n), nil
}

// Options are explain's what-if and context inputs.
type Options struct {
	// LocalCluster overrides cluster_manager.local_cluster_name.
	LocalCluster string
	// Zone overrides the bootstrap's node.locality.
	Zone *lbmodel.Locality
	// ActiveRequests is rq_active by host address, for least request.
	ActiveRequests map[string]uint64
	// SetHealth rewrites host health before computing.
	SetHealth []HealthOverride
	// Remove is host addresses gone (a test's given.remove): every
	// cluster listing one computes without it, as if EDS dropped it.
	Remove []string
	// BudgetOrder is the order in which failure budgets fail hosts.
	BudgetOrder failure.FailOrder
	// HostAges is --host-age: time since each host became healthy, by
	// address, for slow start.
	HostAges map[string]time.Duration
	// HostWeights is --host-weight: a client-side WRR weight as if
	// reported by ORCA, by address.
	HostWeights map[string]uint32
}

// hostAges is HostLB.HostAges from --host-age: hosts not named are past
// any window. nil when no age is given.
func hostAges(hosts []lbmodel.Host, ages map[string]time.Duration) []time.Duration {
	if len(ages) == 0 {
		return nil
	}
	out := make([]time.Duration, len(hosts))
	for i, h := range hosts {
		a, ok := ages[h.Address]
		if !ok {
			a = time.Duration(math.MaxInt64)
		}
		out[i] = a
	}
	return out
}

// clientSideWeights is what updateWeightsOnHosts gives each host, per
// priority, when the hosts named by --host-weight report that weight
// (valid: past the blackout period, not expired) and the others do not.
// nil without --host-weight: every weight is 1.
func clientSideWeights(hosts []lbmodel.Host, weights map[string]uint32, c lbmodel.ClientSideWRRConfig) []uint32 {
	if len(weights) == 0 {
		return nil
	}
	out := make([]uint32, len(hosts))
	byPrio := map[int][]int{}
	for i, h := range hosts {
		byPrio[h.Priority] = append(byPrio[h.Priority], i)
	}
	for _, idx := range byPrio {
		reports := make([]*lbmodel.ReportedWeight, len(idx))
		for k, i := range idx {
			if w, ok := weights[hosts[i].Address]; ok {
				reports[k] = &lbmodel.ReportedWeight{Weight: w, FirstReportAgo: time.Duration(math.MaxInt64)}
			}
		}
		for k, w := range lbmodel.ClientSideWRRWeights(reports, c) {
			out[idx[k]] = w
		}
	}
	return out
}

// With returns cl's model with --set-health and Remove applied: the
// memoized model when no what-if names cl, else a copy whose hosts the
// what-ifs change.
func With(c *config.Config, cl *config.Cluster, opt Options) (*Model, []string, error) {
	return Lookup(c, cl).With(opt)
}

// With is e's model with opt's what-ifs applied (see the function With).
func (e *Entry) With(opt Options) (*Model, []string, error) {
	cp := *e.Model
	m := &cp
	var notes []string
	copied := false
	if len(opt.Remove) > 0 {
		// A new slice: the memoized hosts stay whole for other reports.
		if rest := hash.WithoutAddresses(m.Hosts, opt.Remove); len(rest) < len(m.Hosts) {
			notes = append(notes, fmt.Sprintf("%d of %d hosts removed (given remove)", len(m.Hosts)-len(rest), len(m.Hosts)))
			m.Hosts, copied = rest, true
		}
	}
	for _, o := range opt.SetHealth {
		if o.Cluster != m.Name {
			continue
		}
		if !copied {
			m.Hosts = slices.Clone(m.Hosts)
			copied = true
		}
		n, err := o.apply(m.Hosts)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, n)
	}
	return m, notes, nil
}

// Rejection is s.Rejected as a *RejectedError positioned at the field
// (the cluster when the field has no position); nil when Envoy accepts it.
func (s LBSettings) Rejection(cl *config.Cluster) error {
	if s.Rejected == "" {
		return nil
	}
	return &RejectedError{Pos: s.Pos.Rejected, Cluster: cl.Name(), Msg: s.Rejected}
}

// HashSizeRejection is Envoy's check of the ring (RING_HASH) or Maglev
// table (otherwise) size, which RingHashLoadBalancer and MaglevLoadBalancer
// throw on at construction: nil when valid, else a *RejectedError at the
// message that set the size (ring_hash_lb_config or the typed RingHash;
// Maglev's table_size), at the cluster when the defaults apply.
func (s LBSettings) HashSizeRejection(cl *config.Cluster, policy string) *RejectedError {
	if policy == "RING_HASH" {
		if err := s.Ring.Validate(); err != nil {
			return &RejectedError{Pos: s.Pos.Ring, Cluster: cl.Name(), Msg: err.Error()}
		}
		return nil
	}
	if err := s.Maglev.Validate(); err != nil {
		return &RejectedError{Pos: s.Pos.Maglev, Cluster: cl.Name(), Msg: err.Error()}
	}
	return nil
}
