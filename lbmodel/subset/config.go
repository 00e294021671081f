package subset

import (
	"fmt"
	"sort"
)

// FallbackPolicy is LbSubsetConfig.LbSubsetFallbackPolicy, numbered as
// the proto enum. The zero value NO_FALLBACK is Envoy's default (the seed
// docs' "NO_ENDPOINT" is an old name).
type FallbackPolicy int

const (
	FallbackNoFallback  FallbackPolicy = 0
	FallbackAnyEndpoint FallbackPolicy = 1
	FallbackDefault     FallbackPolicy = 2
)

func (p FallbackPolicy) String() string {
	switch p {
	case FallbackNoFallback:
		return "NO_FALLBACK"
	case FallbackAnyEndpoint:
		return "ANY_ENDPOINT"
	case FallbackDefault:
		return "DEFAULT_SUBSET"
	}
	return fmt.Sprintf("SubsetFallbackPolicy(%d)", int(p))
}

// SelectorFallbackPolicy is LbSubsetSelector.LbSubsetSelectorFallbackPolicy,
// numbered as the proto enum; NOT_DEFINED (0) defers to the top level.
type SelectorFallbackPolicy int

const (
	SelectorNotDefined  SelectorFallbackPolicy = 0
	SelectorNoFallback  SelectorFallbackPolicy = 1
	SelectorAnyEndpoint SelectorFallbackPolicy = 2
	SelectorDefault     SelectorFallbackPolicy = 3
	SelectorKeys        SelectorFallbackPolicy = 4
)

func (p SelectorFallbackPolicy) String() string {
	switch p {
	case SelectorNotDefined:
		return "NOT_DEFINED"
	case SelectorNoFallback:
		return "NO_FALLBACK"
	case SelectorAnyEndpoint:
		return "ANY_ENDPOINT"
	case SelectorDefault:
		return "DEFAULT_SUBSET"
	case SelectorKeys:
		return "KEYS_SUBSET"
	}
	return fmt.Sprintf("SelectorFallbackPolicy(%d)", int(p))
}

// MetadataFallbackPolicy is LbSubsetConfig.LbSubsetMetadataFallbackPolicy.
type MetadataFallbackPolicy int

const (
	MetadataNoFallback   MetadataFallbackPolicy = 0
	MetadataFallbackList MetadataFallbackPolicy = 1
)

// FallbackListKey is the criteria key FALLBACK_LIST reads
// (Config::MetadataEnvoyLbKeys::FALLBACK_LIST).
const FallbackListKey = "fallback_list"

// Selector is one lb_subset_config.subset_selectors entry.
type Selector struct {
	Keys                []string
	FallbackPolicy      SelectorFallbackPolicy
	FallbackKeysSubset  []string
	SingleHostPerSubset bool
}

// Config is Cluster.lb_subset_config or the
// envoy.load_balancing_policies.subset extension, as plain values.
type Config struct {
	FallbackPolicy FallbackPolicy
	// DefaultSubset is default_subset (top-level keys of the Struct).
	DefaultSubset       map[string]any
	Selectors           []Selector
	LocalityWeightAware bool
	ScaleLocalityWeight bool
	PanicModeAny        bool
	ListAsAny           bool
	MetadataFallback    MetadataFallbackPolicy
	// AllowRedundantKeys exists only in the extension proto; the legacy
	// lb_subset_config never sets it.
	AllowRedundantKeys bool
}

// Enabled is LoadBalancerSubsetInfoImpl::isEnabled: subset load balancing is
// on iff subset_selectors is non-empty (before empty-key selectors are
// dropped). With it off the cluster's plain LB runs and metadata is ignored.
func (c Config) Enabled() bool { return len(c.Selectors) > 0 }

// normSelector is a selector after Selector's constructor: keys and
// fallback keys as sorted sets.
type normSelector struct {
	index        int // position in the configuration
	keys         []string
	policy       SelectorFallbackPolicy
	fallbackKeys []string
	singleHost   bool
}

// sortedSet is std::set<std::string>: unique, bytewise ascending.
func sortedSet(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	n := 0
	for i, s := range out {
		if i == 0 || s != out[n-1] {
			out[n] = s
			n++
		}
	}
	return out[:n]
}

func isSubsetOf(sub, set []string) bool {
	m := map[string]bool{}
	for _, s := range set {
		m[s] = true
	}
	for _, s := range sub {
		if !m[s] {
			return false
		}
	}
	return true
}

// normalizeSelectors is LoadBalancerSubsetInfoImpl's constructor and
// Selector's constructor (subset_lb_config.cc): empty-key selectors
// are dropped silently, keys become sorted sets, the KEYS_SUBSET rules are
// enforced, and with allow_redundant_keys selectors are stable-sorted by key
// count, descending.
func normalizeSelectors(c Config) ([]normSelector, error) {
	var out []normSelector
	for i, s := range c.Selectors {
		if len(s.Keys) == 0 {
			continue
		}
		ns, err := normalizeSelector(i, s)
		if err != nil {
			return nil, err
		}
		out = append(out, ns)
	}
	if c.AllowRedundantKeys {
		sort.SliceStable(out, func(i, j int) bool { return len(out[i].keys) > len(out[j].keys) })
	}
	return out, nil
}

// normalizeSelector is selector i's constructor: keys as sorted sets and
// the KEYS_SUBSET rules enforced.
func normalizeSelector(i int, s Selector) (normSelector, error) {
	ns := normSelector{index: i, keys: sortedSet(s.Keys), policy: s.FallbackPolicy,
		fallbackKeys: sortedSet(s.FallbackKeysSubset), singleHost: s.SingleHostPerSubset}
	if ns.policy < SelectorNotDefined || ns.policy > SelectorKeys {
		return ns, fmt.Errorf("subset_selectors[%d]: unknown fallback_policy %d", i, int(ns.policy))
	}
	if ns.policy != SelectorKeys {
		if len(ns.fallbackKeys) > 0 {
			return ns, fmt.Errorf("subset_selectors[%d]: fallback_keys_subset can be set only for KEYS_SUBSET fallback_policy", i)
		}
		return ns, nil
	}
	if len(ns.fallbackKeys) == 0 {
		return ns, fmt.Errorf("subset_selectors[%d]: fallback_keys_subset cannot be empty", i)
	}
	if !isSubsetOf(ns.fallbackKeys, ns.keys) {
		return ns, fmt.Errorf("subset_selectors[%d]: fallback_keys_subset must be a subset of selector keys", i)
	}
	if len(ns.fallbackKeys) == len(ns.keys) {
		return ns, fmt.Errorf("subset_selectors[%d]: fallback_keys_subset cannot be equal to keys", i)
	}
	return ns, nil
}

// SelectorErrors is why Envoy rejects each selector of c (nil for one it
// accepts or drops): every rejection, where NewLB stops at the first.
func SelectorErrors(c Config) []error {
	out := make([]error, len(c.Selectors))
	for i, s := range c.Selectors {
		if len(s.Keys) > 0 {
			_, out[i] = normalizeSelector(i, s)
		}
	}
	return out
}
