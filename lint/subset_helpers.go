package lint

import (
	"slices"

	"github.com/lbctl/lbctl/analyze/config"
)

// hasSubsets reports whether the cluster uses the legacy subset LB with at
// least one selector (LegacyLbPolicyConfigHelper: with no selectors the
// subset LB is not used).
func hasSubsets(cl *config.Cluster) bool {
	return cl.Proto.GetLoadBalancingPolicy() == nil && len(cl.Proto.GetLbSubsetConfig().GetSubsetSelectors()) > 0
}

// selectorKeySets lists each selector's sorted key set.
func selectorKeySets(cl *config.Cluster) [][]string {
	var out [][]string
	for _, s := range cl.Proto.GetLbSubsetConfig().GetSubsetSelectors() {
		k := uniq(s.GetKeys())
		out = append(out, k)
	}
	return out
}

// matchKeys is the sorted key set of a route's subset criteria.
func matchKeys(rt config.RouteTarget) []string {
	return rt.Criteria(nil).Names()
}

// selectorFor reports whether some selector has exactly keys.
func selectorFor(cl *config.Cluster, keys []string) bool {
	for _, s := range selectorKeySets(cl) {
		if slices.Equal(s, keys) {
			return true
		}
	}
	return false
}
