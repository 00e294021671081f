package subset

import "sort"

// Unreachability is the hosts no request reaches, with the reasons: per
// host, the subsets that hold it, and for all of them, the fallbacks some
// request reaches.
type Unreachability struct {
	Hosts    []UnreachedHost
	Fallback FallbackReach
}

// UnreachedHost is one host no request reaches.
type UnreachedHost struct {
	// Host is the index into the hosts NewLB was given.
	Host int
	// SingleHost are the single_host_per_subset subsets that hold the host
	// but return another one (Returned, same order); empty when the host is
	// in no subset at all.
	SingleHost []*Entry
	Returned   []int
}

// FallbackReach is which fallback pools some request can reach. The
// any-endpoint subset is never one of them when a host is unreached.
type FallbackReach struct {
	// Policy is the top-level fallback_policy: NO_FALLBACK or DEFAULT_SUBSET.
	Policy FallbackPolicy
	// DefaultSubset is default_subset; it matches no unreached host.
	DefaultSubset map[string]any
	// DefaultSelectors are the selectors (configuration indexes) whose
	// stored DEFAULT_SUBSET policy reaches the default subset.
	DefaultSelectors []int
	// PanicModeAny is set, but under NO_FALLBACK chooseHostIteration
	// returns before panic_mode_subset_.
	PanicModeAny bool
	// LostAny and LostDefault are selectors whose ANY_ENDPOINT or
	// DEFAULT_SUBSET policy initSubsetSelectorMap never stores.
	LostAny, LostDefault []int
	// KeysSubset are the selectors with a stored KEYS_SUBSET policy, and
	// FallbackList is metadata_fallback_policy FALLBACK_LIST: both only
	// retry subset lookups with other criteria, so reach no other pool.
	KeysSubset   []int
	FallbackList bool
}

// DefaultReached reports whether some request reaches the default subset.
func (f FallbackReach) DefaultReached() bool {
	return f.Policy == FallbackDefault || len(f.DefaultSelectors) > 0
}

// UnreachedWhy lists the hosts (indexes into the hosts NewLB was given)
// that no request can be sent to, whatever its criteria and whatever the
// hosts' health, and why: SubsetLoadBalancer::chooseHost only ever picks
// from an active subset (a single-host subset returns its first host
// only), the any-endpoint subset, or the default subset. Subsets are built
// from all hosts regardless of health (processSubsets), so health what-ifs
// do not change the answer.
func (lb *LB) UnreachedWhy() Unreachability {
	if anyReachable(lb.cfg, lb.selectorRoot) {
		return Unreachability{}
	}
	reached := make([]bool, len(lb.hosts))
	single := map[int][]*Entry{}
	for _, e := range lb.Subsets() {
		if e.SingleHost {
			reached[e.hostIdx[0]] = true
			for i := range e.members {
				single[i] = append(single[i], e)
			}
			for _, i := range e.dropped {
				if n := len(single[i]); n == 0 || single[i][n-1] != e {
					single[i] = append(single[i], e)
				}
			}
			continue
		}
		for i := range e.members {
			reached[i] = true
		}
	}
	if defaultReachable(lb.cfg, lb.selectorRoot) {
		for i, h := range lb.hosts {
			if labelMatch(lb.cfg.DefaultSubset, h.Metadata, lb.cfg.ListAsAny) {
				reached[i] = true
			}
		}
	}
	u := Unreachability{Fallback: fallbackReach(lb)}
	for i, r := range reached {
		if r {
			continue
		}
		uh := UnreachedHost{Host: i, SingleHost: single[i]}
		for _, e := range uh.SingleHost {
			uh.Returned = append(uh.Returned, e.hostIdx[0])
		}
		u.Hosts = append(u.Hosts, uh)
	}
	return u
}

// fallbackReach collects lb's fallbacks for UnreachedWhy, once
// anyReachable is false.
func fallbackReach(lb *LB) FallbackReach {
	f := FallbackReach{Policy: lb.cfg.FallbackPolicy, DefaultSubset: lb.cfg.DefaultSubset,
		PanicModeAny: lb.cfg.PanicModeAny, FallbackList: lb.cfg.MetadataFallback == MetadataFallbackList}
	f.DefaultSelectors = storedSelectors(lb.selectorRoot, SelectorDefault)
	f.KeysSubset = storedSelectors(lb.selectorRoot, SelectorKeys)
	for _, i := range lb.LostSelectorPolicies {
		switch lb.cfg.Selectors[i].FallbackPolicy {
		case SelectorAnyEndpoint:
			f.LostAny = append(f.LostAny, i)
		case SelectorDefault:
			f.LostDefault = append(f.LostDefault, i)
		}
	}
	return f
}

// anyReachable reports whether some request can reach the any-endpoint
// subset: fallback_policy ANY_ENDPOINT, a selector's stored ANY_ENDPOINT
// policy, or panic_mode_any behind a top-level fallback (with NO_FALLBACK
// chooseHost returns before panic_mode_subset_). panic_mode_any under
// DEFAULT_SUBSET counts even when the default subset always yields a host:
// an over-approximation that can only hide a finding.
func anyReachable(cfg Config, root *selectorNode) bool {
	if cfg.FallbackPolicy == FallbackAnyEndpoint || (cfg.PanicModeAny && cfg.FallbackPolicy != FallbackNoFallback) {
		return true
	}
	return len(storedSelectors(root, SelectorAnyEndpoint)) > 0
}

// defaultReachable reports whether some request can reach the default
// subset: the top-level DEFAULT_SUBSET or a selector's stored one.
func defaultReachable(cfg Config, root *selectorNode) bool {
	return cfg.FallbackPolicy == FallbackDefault || len(storedSelectors(root, SelectorDefault)) > 0
}

// storedSelectors lists the selectors (configuration indexes, ascending)
// whose policy p is stored on a node under n; only stored policies take
// effect (see buildSelectorTrie).
func storedSelectors(n *selectorNode, p SelectorFallbackPolicy) []int {
	var out []int
	var walk func(*selectorNode)
	walk = func(n *selectorNode) {
		if n == nil {
			return
		}
		if n.selector >= 0 && n.policy == p {
			out = append(out, n.selector)
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(n)
	sort.Ints(out)
	return out
}
