package subset

import "github.com/lbctl/lbctl/lbmodel"

// Unreached lists the indexes (into the hosts NewLB was given) of hosts that
// no request can be sent to, whatever its criteria and whatever the hosts'
// health: SubsetLoadBalancer::chooseHost only ever picks from an active
// subset (a single-host subset returns its first host only), the
// any-endpoint subset, or the default subset. A host that is in none of the
// pools a policy can reach never receives traffic. Subsets are built from
// all hosts regardless of health (processSubsets), so health what-ifs do not
// change the answer.
func (lb *LB) Unreached() []int {
	if anyReachable(lb.cfg, lb.selectorRoot) {
		return nil
	}
	reached := make([]bool, len(lb.hosts))
	for _, e := range lb.Subsets() {
		if e.SingleHost {
			reached[firstMember(lb.hosts, e)] = true
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
	var out []int
	for i, r := range reached {
		if !r {
			out = append(out, i)
		}
	}
	return out
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
	return storedPolicy(root, SelectorAnyEndpoint)
}

// defaultReachable reports whether some request can reach the default
// subset: the top-level DEFAULT_SUBSET or a selector's stored one.
func defaultReachable(cfg Config, root *selectorNode) bool {
	return cfg.FallbackPolicy == FallbackDefault || storedPolicy(root, SelectorDefault)
}

// storedPolicy reports whether a node under n keeps policy p (only stored
// policies take effect, see buildSelectorTrie).
func storedPolicy(n *selectorNode, p SelectorFallbackPolicy) bool {
	if n == nil {
		return false
	}
	if n.selector >= 0 && n.policy == p {
		return true
	}
	for _, c := range n.children {
		if storedPolicy(c, p) {
			return true
		}
	}
	return false
}

// firstMember is the host a single-host subset returns: Hosts[0], the
// first member of its lowest priority.
func firstMember(hosts []lbmodel.Host, e *Entry) int {
	best := -1
	for i := range e.members {
		if best < 0 || hosts[i].Priority < hosts[best].Priority ||
			(hosts[i].Priority == hosts[best].Priority && i < best) {
			best = i
		}
	}
	return best
}
