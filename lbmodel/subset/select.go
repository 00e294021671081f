package subset

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/lbmodel"
)

// ChildLB is what the subset LB needs to know of its child policy to tell
// whether a pool returns a host: the child's own priority/panic rules run on
// each pool's hosts (§1 of the spec).
type ChildLB struct {
	// PanicThreshold is the effective integer threshold (see
	// PanicThreshold); 0 disables panic.
	PanicThreshold int
	// FailTrafficOnPanic is zone-aware locality_lb_config's
	// fail_traffic_on_panic: a panicked priority returns no host.
	FailTrafficOnPanic bool
	// OverprovisioningFactor in percent; 0 means the default 140.
	OverprovisioningFactor uint32
	WeightedPriorityHealth bool
}

// DefaultChildLB is a child with Envoy's defaults: threshold 50, OPF 140.
func DefaultChildLB() ChildLB {
	return ChildLB{PanicThreshold: lbmodel.DefaultPanicThreshold, OverprovisioningFactor: lbmodel.DefaultOverprovisioningFactor}
}

// PoolYield says whether a pool's child LB returns a host.
type PoolYield int

const (
	// YieldNone: every pick returns no host (empty pool, panic disabled
	// with no healthy or degraded host, or fail_traffic_on_panic with all
	// load on panicked priorities).
	YieldNone PoolYield = iota
	// YieldSome: with fail_traffic_on_panic some priorities are in panic;
	// requests choosing them get no host and continue to the next
	// fallback step, the others are served.
	YieldSome
	// YieldAll: every pick returns a host.
	YieldAll
)

func (y PoolYield) String() string {
	switch y {
	case YieldNone:
		return "none"
	case YieldSome:
		return "some"
	}
	return "all"
}

// poolYield runs the child's priority arithmetic (ComputePriorityLoad) on a
// pool to see whether chooseHost returns a host.
func (c ChildLB) poolYield(hosts []lbmodel.Host) (PoolYield, *lbmodel.PriorityLoad) {
	if len(hosts) == 0 {
		return YieldNone, nil
	}
	opf := c.OverprovisioningFactor
	if opf == 0 {
		opf = lbmodel.DefaultOverprovisioningFactor
	}
	pl := lbmodel.ComputePriorityLoad(lbmodel.LevelsFromHosts(hosts, opf, c.WeightedPriorityHealth), c.PanicThreshold)
	if pl.PanicDisabledNoHealth {
		return YieldNone, &pl
	}
	if c.FailTrafficOnPanic {
		served := 0
		for _, l := range pl.Levels {
			if !l.Panic {
				served += l.HealthyLoad + l.DegradedLoad
			}
		}
		switch {
		case served == 0:
			return YieldNone, &pl
		case served < 100:
			return YieldSome, &pl
		}
	}
	return YieldAll, &pl
}

// Source is where a decision's hosts come from (contract `subset`).
type Source string

const (
	SourceSubset   Source = "subset"
	SourceFallback Source = "fallback"
	SourceNoHost   Source = "no_host"
)

// Pool names for Decision.Pool.
const (
	PoolSubset        = "subset"
	PoolAnyEndpoint   = "any_endpoint"
	PoolDefaultSubset = "default_subset"
)

// Step is one step of a decision path, for printing.
type Step struct {
	// Action: lookup, redundant_keys, selector_fallback, keys_subset,
	// fallback, panic_mode_any, fallback_list, no_criteria.
	Action   string
	Criteria *lbmodel.MatchCriteria
	Detail   string
}

func (s Step) String() string {
	if s.Criteria == nil {
		return s.Action + ": " + s.Detail
	}
	return s.Action + " " + s.Criteria.String() + ": " + s.Detail
}

// Decision is the outcome of LB.Select.
type Decision struct {
	// Criteria are the criteria given to Select; Effective are those of
	// the lookup that decided (after allow_redundant_keys, KEYS_SUBSET or a
	// fallback_list entry).
	Criteria, Effective *lbmodel.MatchCriteria
	Source              Source
	// FallbackPolicy names the policy that chose the pool or refused:
	// "" for a subset hit, else NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET
	// or KEYS_SUBSET (a selector's KEYS_SUBSET that led to a subset).
	FallbackPolicy string
	// SelectorPolicy is true when FallbackPolicy is a selector's policy
	// rather than the top-level fallback_policy.
	SelectorPolicy bool
	// PanicModeAny is true when the pool is panic_mode_any's any-endpoint
	// subset.
	PanicModeAny bool
	// Pool is PoolSubset, PoolAnyEndpoint, PoolDefaultSubset or "".
	Pool string
	// Subset is the matched entry (also set when it returns no host).
	Subset *Entry
	// Hosts is the pool the child LB balances over; for a single-host
	// subset, the one host returned (lowest priority).
	Hosts []lbmodel.Host
	// SubsetMatched: an active subset matched. Envoy then never falls back,
	// even when the subset's child LB returns no host.
	SubsetMatched bool
	// NoHealthyHosts: the pool has no healthy or degraded host; its child
	// LB serves it in panic (or not at all, see Yield).
	NoHealthyHosts bool
	Yield          PoolYield
	// Load is the child's priority load over Hosts (nil for an empty or
	// single-host pool).
	Load   *lbmodel.PriorityLoad
	Steps  []Step
	Reason string
}

// maxKeysDepth bounds KEYS_SUBSET recursion; each step strictly
// shrinks the key set, so real configurations stop far below it.
const maxKeysDepth = 64

// Select is SubsetLoadBalancer::chooseHost for a request carrying criteria
// (nil: no context or no metadata match), with the child LB's rules deciding
// whether a pool returns a host. It follows chooseHost,
// chooseHostWithMetadataFallbacks, chooseHostIteration,
// filterCriteriaBySelectors, tryChooseHostFromContext, findSubset,
// tryFindSelectorFallbackParams and chooseHostForSelectorFallbackPolicy
// (subset_lb.cc).
func (lb *LB) Select(criteria *lbmodel.MatchCriteria, child ChildLB) Decision {
	var steps []Step
	var d Decision
	list, hasList := criteria.Get(FallbackListKey)
	if lb.cfg.MetadataFallback == MetadataFallbackList && hasList {
		var names []string
		for _, c := range criteria.Entries {
			if c.Name != FallbackListKey {
				names = append(names, c.Name)
			}
		}
		base := criteria.Filter(names)
		entries, isList := list.([]any)
		if !isList || len(entries) == 0 {
			steps = append(steps, Step{"fallback_list", base, fallbackListNote(isList)})
			d = lb.iterate(base, child, &steps, 0)
		} else {
			for i, e := range entries {
				// A non-struct entry overrides nothing (struct_value() of
				// another kind is the empty Struct).
				fields, _ := e.(map[string]any)
				c := base.Merge(fields)
				if fields == nil {
					c = base.Merge(map[string]any{})
				}
				steps = append(steps, Step{"fallback_list", c, fmt.Sprintf("entry %d of %d", i+1, len(entries))})
				d = lb.iterate(c, child, &steps, 0)
				if d.Yield != YieldNone {
					break
				}
				if i < len(entries)-1 {
					steps = append(steps, Step{"fallback_list", nil, fmt.Sprintf("entry %d gave no host; next entry", i+1)})
				}
			}
			if d.Yield == YieldNone {
				d.Reason = "no fallback_list entry gave a host; " + d.Reason
			}
		}
	} else {
		d = lb.iterate(criteria, child, &steps, 0)
	}
	d.Criteria = criteria
	d.Steps = steps
	return d
}

func fallbackListNote(isList bool) string {
	if !isList {
		return "fallback_list is not a list: ignored, the other criteria are used"
	}
	return "fallback_list is empty: the other criteria are used"
}

// iterate is chooseHostIteration.
func (lb *LB) iterate(criteria *lbmodel.MatchCriteria, child ChildLB, steps *[]Step, depth int) Decision {
	if criteria == nil {
		*steps = append(*steps, Step{"no_criteria", nil, "no metadata match criteria: no subset requested"})
		return lb.topLevel(criteria, child, steps, "no subset requested")
	}
	c := criteria
	if lb.cfg.AllowRedundantKeys {
		for _, s := range lb.selectors {
			f := c.Filter(s.keys)
			if len(f.Entries) == len(s.keys) {
				if len(f.Entries) != len(c.Entries) {
					*steps = append(*steps, Step{"redundant_keys", f,
						fmt.Sprintf("allow_redundant_keys: kept the keys of selector %d %v", s.index, s.keys)})
				}
				c = f
				break
			}
		}
	}
	if e := lb.findSubset(c); e != nil {
		return lb.fromSubset(c, e, child, steps)
	}
	miss := "no subset for " + c.String()
	if len(c.Entries) == 0 {
		miss = "empty criteria match no subset"
	}
	*steps = append(*steps, Step{"lookup", c, miss})
	node, ok := lb.selectorParams(c)
	if ok && node.policy != SelectorNotDefined {
		return lb.selectorFallback(c, node, child, steps, depth)
	}
	return lb.topLevel(c, child, steps, miss)
}

// fromSubset is tryChooseHostFromContext's hit: the subset's child LB (or
// its single host) decides, and the result is final.
func (lb *LB) fromSubset(c *lbmodel.MatchCriteria, e *Entry, child ChildLB, steps *[]Step) Decision {
	d := Decision{Effective: c, Source: SourceSubset, Pool: PoolSubset, Subset: e, SubsetMatched: true}
	if e.SingleHost {
		// SingleHostLbSubset returns its host without any health check; the
		// lowest priority's host wins.
		d.Hosts = e.Hosts[:1]
		d.Yield = YieldAll
		d.NoHealthyHosts = e.Hosts[0].Health() == lbmodel.Unhealthy
		d.Reason = "single-host subset " + c.String()
		*steps = append(*steps, Step{"lookup", c, "single_host_per_subset subset: " + e.Hosts[0].Address + " (health not checked)"})
		return d
	}
	d.Hosts = e.Hosts
	d.Yield, d.Load = child.poolYield(e.Hosts)
	d.NoHealthyHosts = !hasUsable(e.Hosts)
	d.Reason = "subset " + c.String() + " selected"
	detail := fmt.Sprintf("subset selected: %s", hostList(e.Hosts))
	if d.NoHealthyHosts {
		detail += "; no healthy host, but a matched subset never falls back"
	}
	if d.Yield == YieldNone {
		d.Source = SourceNoHost
		d.Reason = "subset " + c.String() + " matched but its load balancer returns no host; Envoy does not fall back"
		detail += "; its load balancer returns no host"
	}
	*steps = append(*steps, Step{"lookup", c, detail})
	return d
}

// selectorFallback is chooseHostForSelectorFallbackPolicy.
func (lb *LB) selectorFallback(c *lbmodel.MatchCriteria, node *selectorNode, child ChildLB, steps *[]Step, depth int) Decision {
	pol := node.policy
	sel := fmt.Sprintf("selector %d fallback_policy %s", node.selector, pol)
	switch pol {
	case SelectorNoFallback:
		*steps = append(*steps, Step{"selector_fallback", c, sel + ": no host"})
		return Decision{Effective: c, Source: SourceNoHost, FallbackPolicy: pol.String(), SelectorPolicy: true,
			Reason: "no subset for " + c.String() + "; " + sel}
	case SelectorAnyEndpoint, SelectorDefault:
		pool, hosts := PoolAnyEndpoint, lb.any
		if pol == SelectorDefault {
			pool, hosts = PoolDefaultSubset, lb.def
		}
		d := fromPool(c, pool, hosts, child)
		d.FallbackPolicy, d.SelectorPolicy = pol.String(), true
		d.Reason = "no subset for " + c.String() + "; " + sel + lb.poolDesc(pool) + " → " + hostList(hosts)
		detail := sel + lb.poolDesc(pool) + ": " + hostList(hosts)
		if d.Yield == YieldNone {
			d.Source = SourceNoHost
			detail += "; returns no host (no top-level fallback after a selector fallback)"
		}
		*steps = append(*steps, Step{"selector_fallback", c, detail})
		return d
	case SelectorKeys:
		f := c.Filter(node.fallbackKeys)
		*steps = append(*steps, Step{"keys_subset", f, fmt.Sprintf("%s: retry with keys %v", sel, node.fallbackKeys)})
		if depth >= maxKeysDepth {
			return Decision{Effective: f, Source: SourceNoHost, FallbackPolicy: pol.String(), SelectorPolicy: true,
				Reason: "KEYS_SUBSET recursion too deep"}
		}
		d := lb.iterate(f, child, steps, depth+1)
		if d.Source == SourceSubset {
			// The host set came from a subset, reached through KEYS_SUBSET.
			d.Source = SourceFallback
			d.FallbackPolicy, d.SelectorPolicy = pol.String(), true
			d.Reason = "no subset for " + c.String() + "; KEYS_SUBSET " + d.Reason
		}
		return d
	}
	return Decision{Effective: c, Source: SourceNoHost, Reason: "unknown selector fallback policy"}
}

// topLevel is chooseHostIteration's tail: fallback_subset_, then
// panic_mode_subset_; NO_FALLBACK returns nothing, panic_mode_any included.
func (lb *LB) topLevel(c *lbmodel.MatchCriteria, child ChildLB, steps *[]Step, why string) Decision {
	pol := lb.cfg.FallbackPolicy
	if pol == FallbackNoFallback {
		*steps = append(*steps, Step{"fallback", nil, "fallback_policy NO_FALLBACK: no host"})
		return Decision{Effective: c, Source: SourceNoHost, FallbackPolicy: pol.String(),
			Reason: why + "; fallback NO_FALLBACK"}
	}
	pool, hosts := PoolAnyEndpoint, lb.any
	if pol == FallbackDefault {
		pool, hosts = PoolDefaultSubset, lb.def
	}
	d := fromPool(c, pool, hosts, child)
	d.FallbackPolicy = pol.String()
	d.Reason = why + "; fallback " + pol.String() + lb.poolDesc(pool) + " → " + hostList(hosts)
	*steps = append(*steps, Step{"fallback", nil, "fallback_policy " + pol.String() + lb.poolDesc(pool) + ": " + hostList(hosts)})
	if d.Yield != YieldNone {
		return d
	}
	if !lb.cfg.PanicModeAny {
		d.Source = SourceNoHost
		*steps = append(*steps, Step{"fallback", nil, "the fallback pool returns no host"})
		return d
	}
	p := fromPool(c, PoolAnyEndpoint, lb.any, child)
	p.FallbackPolicy, p.PanicModeAny = pol.String(), true
	p.Reason = why + "; fallback " + pol.String() + " gave no host; panic_mode_any → " + hostList(lb.any)
	detail := "panic_mode_any: any endpoint: " + hostList(lb.any)
	if p.Yield == YieldNone {
		p.Source = SourceNoHost
		detail += "; returns no host"
	}
	*steps = append(*steps, Step{"panic_mode_any", nil, detail})
	return p
}

func fromPool(c *lbmodel.MatchCriteria, pool string, hosts []lbmodel.Host, child ChildLB) Decision {
	d := Decision{Effective: c, Source: SourceFallback, Pool: pool, Hosts: hosts}
	d.Yield, d.Load = child.poolYield(hosts)
	d.NoHealthyHosts = !hasUsable(hosts)
	if d.Yield == YieldNone {
		d.Source = SourceNoHost
	}
	return d
}

func (lb *LB) poolDesc(pool string) string {
	if pool == PoolDefaultSubset {
		return " " + lbmodel.NewMatchCriteria(lb.cfg.DefaultSubset).String()
	}
	return " (any endpoint)"
}

// hasUsable reports a healthy or degraded host, ignoring excluded ones.
func hasUsable(hosts []lbmodel.Host) bool {
	for _, h := range hosts {
		if !h.Status.Excluded() && h.Health() != lbmodel.Unhealthy {
			return true
		}
	}
	return false
}

func hostList(hosts []lbmodel.Host) string {
	if len(hosts) == 0 {
		return "(no hosts)"
	}
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Address
		if names[i] == "" {
			names[i] = h.Hostname
		}
	}
	return strings.Join(names, ", ")
}
