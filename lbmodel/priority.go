package lbmodel

import (
	"errors"
	"fmt"
	"math"
)

// DefaultOverprovisioningFactor is Envoy's kDefaultOverProvisioningFactor
// (load_balancer_impl.h): 140, i.e. 1.4.
const DefaultOverprovisioningFactor = 140

// DefaultPanicThreshold is the healthy_panic_threshold Envoy uses when the
// cluster sets none.
const DefaultPanicThreshold = 50

// Level is one priority level's hosts as the priority arithmetic sees them.
// Counts are disjoint: Healthy + Degraded + Excluded + unhealthy = Hosts.
type Level struct {
	Hosts, Healthy, Degraded, Excluded int
	// Weight sums, used only when WeightedPriorityHealth is set.
	TotalWeight, HealthyWeight, DegradedWeight, ExcludedWeight uint64
	// OverprovisioningFactor is the level's ClusterLoadAssignment
	// policy.overprovisioning_factor (percent; 140 when unset).
	OverprovisioningFactor uint32
	WeightedPriorityHealth bool
}

// Validate reports counts that no Envoy host set can have: negative
// counts, more healthy+degraded+excluded hosts than hosts, weight sums that
// do not fit, or a zero overprovisioning factor (endpoint.proto requires
// overprovisioning_factor > 0). ComputePriorityLoad never panics on such a
// level, but its numbers are then meaningless, so callers that build Levels
// by hand should check them first.
func (l Level) Validate() error {
	switch {
	case l.Hosts < 0 || l.Healthy < 0 || l.Degraded < 0 || l.Excluded < 0:
		return errors.New("lbmodel: negative host count")
	case l.Healthy+l.Degraded+l.Excluded > l.Hosts:
		return fmt.Errorf("lbmodel: %d healthy + %d degraded + %d excluded exceed %d hosts",
			l.Healthy, l.Degraded, l.Excluded, l.Hosts)
	case l.OverprovisioningFactor == 0:
		return errors.New("lbmodel: overprovisioning factor must be > 0")
	}
	if l.WeightedPriorityHealth {
		parts := l.HealthyWeight + l.DegradedWeight
		if parts < l.HealthyWeight || parts+l.ExcludedWeight < parts || parts+l.ExcludedWeight > l.TotalWeight {
			return errors.New("lbmodel: healthy + degraded + excluded weight exceed total weight")
		}
		if l.Hosts > l.Excluded && l.TotalWeight == l.ExcludedWeight {
			return errors.New("lbmodel: zero weight over non-excluded hosts")
		}
	}
	return nil
}

// MaxPriority is the largest priority Envoy accepts
// (LocalityLbEndpoints.priority, PGV lte: 128, endpoint_components.proto).
const MaxPriority = 128

// LevelsFromHosts groups hosts into levels 0..max priority (at least P0,
// so a cluster without hosts is P0 in total panic with healthy load 100, as
// in Envoy); a priority with
// no hosts is an empty level, as in Envoy's PrioritySet, which never removes
// levels. Envoy priorities are unsigned and at most MaxPriority, so a host
// with a negative Priority or one above MaxPriority cannot come from a
// valid config: it is left out rather than building a level for every
// priority up to it.
func LevelsFromHosts(hosts []Host, opf uint32, weighted bool) []Level {
	n := 1 // a PrioritySet always has P0, even with no hosts
	for _, h := range hosts {
		if h.Priority+1 > n && h.Priority <= MaxPriority {
			n = h.Priority + 1
		}
	}
	levels := make([]Level, n)
	for i := range levels {
		levels[i].OverprovisioningFactor = opf
		levels[i].WeightedPriorityHealth = weighted
	}
	for _, h := range hosts {
		if h.Priority < 0 || h.Priority > MaxPriority {
			continue
		}
		l := &levels[h.Priority]
		w := uint64(h.Weight)
		if w == 0 {
			w = 1
		}
		l.Hosts++
		l.TotalWeight += w
		switch {
		case h.Status.Excluded():
			l.Excluded++
			l.ExcludedWeight += w
		case h.Health() == Healthy:
			l.Healthy++
			l.HealthyWeight += w
		case h.Health() == Degraded:
			l.Degraded++
			l.DegradedWeight += w
		}
	}
	return levels
}

// Availability returns the level's health and degraded availability, each
// capped at 100, with Envoy's integer arithmetic (multiply, then truncate).
// LoadBalancerBase::recalculatePerPriorityState, load_balancer_impl.cc.
func (l Level) Availability() (health, degraded int) {
	counted := l.Hosts - l.Excluded
	if counted <= 0 {
		return 0, 0
	}
	opf := uint64(l.OverprovisioningFactor)
	var h, d, w uint64
	if l.WeightedPriorityHealth {
		h, d, w = l.HealthyWeight, l.DegradedWeight, l.TotalWeight-l.ExcludedWeight
	} else {
		h, d, w = uint64(l.Healthy), uint64(l.Degraded), uint64(counted)
	}
	if w == 0 {
		return 0, 0
	}
	return int(min(100, opf*h/w)), int(min(100, opf*d/w))
}

// PanicPercent is the number LoadBalancerBase::isHostSetInPanic
// (load_balancer_impl.cc) compares with the panic threshold: the healthy
// percentage plus the degraded percentage, each computed in double as
// 100.0*count/counted over non-excluded hosts. It uses host counts, never
// weights or the overprovisioning factor; a level with no counted hosts
// scores 0. The level panics when this is strictly below the threshold and
// the normalized total availability is below 100.
func (l Level) PanicPercent() float64 {
	counted := l.Hosts - l.Excluded
	if counted <= 0 {
		return 0
	}
	return 100.0*float64(l.Healthy)/float64(counted) + 100.0*float64(l.Degraded)/float64(counted)
}

// inPanic is isHostSetInPanic with an already capped threshold.
func (l Level) inPanic(threshold int) bool {
	return l.PanicPercent() < float64(threshold)
}

// LevelLoad is the computed state of one priority level.
type LevelLoad struct {
	Health               int // health availability, 0..100
	DegradedAvailability int // 0..100
	HealthyLoad          int // percent of the cluster's traffic to this level's healthy hosts
	DegradedLoad         int // percent to its degraded hosts
	Panic                bool
}

// PriorityLoad is what Envoy computes for a priority set.
type PriorityLoad struct {
	Levels                      []LevelLoad
	NormalizedTotalAvailability int
	// TotalPanic: every level is in panic, loads follow host counts.
	TotalPanic bool
	// Unassigned: T == 0 but some level is not in panic, so Envoy assigns no
	// load at all (choosePriority then falls back to P0 through ENVOY_BUG).
	Unassigned bool
	// PanicDisabledNoHealth: threshold 0 and T == 0, so all traffic is sent
	// to P0's (absent) healthy hosts and fails.
	PanicDisabledNoHealth bool
}

// ComputePriorityLoad runs Envoy's priority arithmetic from scratch:
// recalculatePerPriorityState, distributeLoad, recalculatePerPriorityPanic
// and recalculateLoadInTotalPanic (load_balancer_impl.cc).
// threshold is the effective integer panic threshold (see PanicThreshold);
// like recalculatePerPriorityPanic, it is capped at 100 (and, as Envoy's is
// unsigned, a negative value counts as 0).
func ComputePriorityLoad(levels []Level, threshold int) PriorityLoad {
	threshold = max(0, min(100, threshold))
	n := len(levels)
	out := PriorityLoad{Levels: make([]LevelLoad, n)}
	if n == 0 {
		return out
	}
	sum := 0
	for i, l := range levels {
		h, d := l.Availability()
		out.Levels[i].Health, out.Levels[i].DegradedAvailability = h, d
		sum += h + d
	}
	total := min(100, sum) // calculateNormalizedTotalAvailability
	out.NormalizedTotalAvailability = total

	if total > 0 {
		distribute(out.Levels, total)
	}

	if threshold == 0 && total == 0 {
		out.Levels[0].HealthyLoad = 100
		out.PanicDisabledNoHealth = true
		return out
	}
	allPanic := true
	for i, l := range levels {
		p := total < 100 && l.inPanic(threshold)
		out.Levels[i].Panic = p
		allPanic = allPanic && p
	}
	if allPanic {
		out.TotalPanic = true
		loadInTotalPanic(levels, out.Levels)
		return out
	}
	if total == 0 {
		out.Unassigned = true
	}
	return out
}

// distribute is distributeLoad run for healthy then degraded availability,
// with the rounding remainder going to the first level with health, else the
// first with degraded availability.
func distribute(ll []LevelLoad, total int) {
	remaining := 100
	firstHealthy, firstDegraded := -1, -1
	for i := range ll {
		if ll[i].Health > 0 && firstHealthy < 0 {
			firstHealthy = i
		}
		ll[i].HealthyLoad = min(remaining, ll[i].Health*100/total)
		remaining -= ll[i].HealthyLoad
	}
	for i := range ll {
		if ll[i].DegradedAvailability > 0 && firstDegraded < 0 {
			firstDegraded = i
		}
		ll[i].DegradedLoad = min(remaining, ll[i].DegradedAvailability*100/total)
		remaining -= ll[i].DegradedLoad
	}
	if remaining > 0 {
		if firstHealthy >= 0 {
			ll[firstHealthy].HealthyLoad += remaining
		} else if firstDegraded >= 0 {
			ll[firstDegraded].DegradedLoad += remaining
		}
	}
}

// loadInTotalPanic is recalculateLoadInTotalPanic: loads by raw host count,
// excluded hosts included, remainder to the first non-empty level.
func loadInTotalPanic(levels []Level, ll []LevelLoad) {
	total := 0
	for _, l := range levels {
		total += l.Hosts
	}
	for i := range ll {
		ll[i].HealthyLoad, ll[i].DegradedLoad = 0, 0
	}
	if total == 0 {
		ll[0].HealthyLoad = 100
		return
	}
	used, first := 0, -1
	for i, l := range levels {
		ll[i].HealthyLoad = 100 * l.Hosts / total
		used += ll[i].HealthyLoad
		if first < 0 && l.Hosts > 0 {
			first = i
		}
	}
	if first < 0 { // only reachable with negative host counts (see Validate)
		first = 0
	}
	ll[first].HealthyLoad += 100 - used
}

// PanicThreshold converts common_lb_config.healthy_panic_threshold (a double
// percent; set=false when absent) to Envoy's integer threshold.
// PROTOBUF_PERCENT_TO_ROUNDED_INTEGER_OR_DEFAULT(…, 100, 50) goes through
// ProtobufPercentHelper::convertPercent, which computes 100*(v/100.0) and
// truncates: 29 becomes 28, 57 becomes 56, 58 becomes 57, 50.9 becomes 50.
// The result is capped at 100 as recalculatePerPriorityPanic does. Envoy's
// schema rejects values outside 0..100 and NaN; here they map to 0 (NaN,
// negative) or 100 (above 100, +Inf) so that the function is total.
func PanicThreshold(value float64, set bool) int {
	if !set {
		return DefaultPanicThreshold
	}
	if math.IsNaN(value) || value <= 0 {
		return 0
	}
	if value >= 100 {
		return 100
	}
	return int(uint64(100 * (value / 100.0)))
}

// Choose is LoadBalancerBase::choosePriority for a given random or hash
// value: h = hash%100 + 1, then the first level whose cumulative healthy
// load reaches h, else continuing through the degraded loads. ok is false
// when no load is assigned at all (Envoy then falls back to P0, healthy).
func (p PriorityLoad) Choose(hash uint64) (priority int, degraded bool, ok bool) {
	h := int(hash%100) + 1
	cum := 0
	for i, l := range p.Levels {
		cum += l.HealthyLoad
		if h <= cum {
			return i, false, true
		}
	}
	for i, l := range p.Levels {
		cum += l.DegradedLoad
		if h <= cum {
			return i, true, true
		}
	}
	return 0, false, false
}
