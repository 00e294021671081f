package subset

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/lbctl/lbctl/lbmodel"
)

// Problem is one finding about a subset configuration, its hosts or
// a request's criteria.
type Problem struct {
	Severity lbmodel.Severity
	Code     string
	Message  string
}

func (p Problem) String() string { return p.Severity.String() + " " + p.Code + ": " + p.Message }

// Check reports problems with a subset configuration over its hosts.
// Errors are the rejections Envoy makes at config load; warnings are
// settings Envoy accepts but that cannot do what they seem to.
func Check(cfg Config, hosts []lbmodel.Host) []Problem {
	var out []Problem
	add := func(s lbmodel.Severity, code, format string, a ...any) {
		out = append(out, Problem{s, code, fmt.Sprintf(format, a...)})
	}
	if !cfg.Enabled() {
		add(lbmodel.SevInfo, "subset-disabled", "subset_selectors is empty: subset load balancing is off and metadata is ignored")
		return out
	}
	for i, s := range cfg.Selectors {
		if len(s.Keys) == 0 {
			add(lbmodel.SevWarning, "selector-no-keys", "subset_selectors[%d] has no keys: Envoy drops it silently", i)
		} else if len(sortedSet(s.Keys)) != len(s.Keys) {
			add(lbmodel.SevInfo, "selector-duplicate-keys", "subset_selectors[%d] repeats a key: keys are a set", i)
		}
	}
	lb, err := NewLB(cfg, hosts)
	if err != nil {
		add(lbmodel.SevError, "subset-config", "%v", err)
		return out
	}
	for _, i := range lb.LostSelectorPolicies {
		add(lbmodel.SevWarning, "selector-policy-ignored",
			"subset_selectors[%d] fallback_policy %s is ignored: an earlier selector already created the path for keys %v (initSubsetSelectorMap keeps the first)",
			i, cfg.Selectors[i].FallbackPolicy, sortedSet(cfg.Selectors[i].Keys))
	}
	if cfg.PanicModeAny && cfg.FallbackPolicy == FallbackNoFallback {
		add(lbmodel.SevWarning, "panic-mode-any-unused", "panic_mode_any has no effect with fallback_policy NO_FALLBACK: it is consulted only after the fallback subset")
	}
	if cfg.ScaleLocalityWeight && !cfg.LocalityWeightAware {
		add(lbmodel.SevWarning, "scale-locality-weight-unused", "scale_locality_weight has no effect without locality_weight_aware")
	}
	if _, built := lb.DefaultSubset(); !built && len(cfg.DefaultSubset) > 0 {
		add(lbmodel.SevInfo, "default-subset-unused", "default_subset is set but no fallback policy uses DEFAULT_SUBSET")
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.DefaultSubset)) {
		v := cfg.DefaultSubset[k]
		if err := lbmodel.ValidateValue(v); err != nil {
			add(lbmodel.SevError, "default-subset-value", "default_subset %s can never match: %v", k, err)
		}
		if _, isList := v.([]any); isList && cfg.ListAsAny {
			add(lbmodel.SevWarning, "default-subset-list-as-any",
				"default_subset %s is a list: with list_as_any a host list is compared element by element, so only a host list holding this list as an element matches (never an equal list)", k)
		}
	}
	if def, built := lb.DefaultSubset(); built && len(def) == 0 {
		add(lbmodel.SevWarning, "default-subset-empty", "default_subset %s matches no host: DEFAULT_SUBSET fallback returns no host", lbmodel.NewMatchCriteria(cfg.DefaultSubset))
	}
	// Selectors and keys with no subset, and host values that never match.
	used := map[string]bool{}
	for _, s := range cfg.Selectors {
		for _, k := range s.Keys {
			used[k] = true
		}
	}
	for k := range cfg.DefaultSubset {
		used[k] = true
	}
	for i, h := range hosts {
		for _, k := range slices.Sorted(maps.Keys(h.Metadata)) {
			if !used[k] {
				continue
			}
			if err := lbmodel.ValidateValue(h.Metadata[k]); err != nil {
				add(lbmodel.SevWarning, "host-metadata-value", "host %d (%s) envoy.lb %s can never match: %v", i, h.Address, k, err)
			}
		}
	}
	bySelector := map[int]int{}
	for _, e := range lb.Subsets() {
		bySelector[e.Selector]++
	}
	for _, s := range lb.selectors {
		if bySelector[s.index] == 0 && !reachedByEarlier(lb, s) {
			add(lbmodel.SevInfo, "selector-no-hosts", "subset_selectors[%d] keys %v: no host has all these keys, so it creates no subset", s.index, s.keys)
		}
	}
	return out
}

// reachedByEarlier reports whether a selector's subsets exist but were
// initialized by another selector with the same keys.
func reachedByEarlier(lb *LB, s normSelector) bool {
	for _, e := range lb.Subsets() {
		if len(e.Path) == len(s.keys) {
			same := true
			for i, c := range e.Path {
				if c.Name != s.keys[i] {
					same = false
					break
				}
			}
			if same {
				return true
			}
		}
	}
	return false
}

// CheckCriteria reports why request criteria cannot select a subset as
// intended: values that never match, list values under list_as_any, keys no
// selector has, and key sets that equal no selector (which go to fallback
// unless allow_redundant_keys trims them).
func CheckCriteria(cfg Config, c *lbmodel.MatchCriteria) []Problem {
	var out []Problem
	add := func(s lbmodel.Severity, code, format string, a ...any) {
		out = append(out, Problem{s, code, fmt.Sprintf(format, a...)})
	}
	if c == nil {
		return nil
	}
	known := map[string]bool{}
	keySets := map[string]bool{}
	for _, s := range cfg.Selectors {
		if len(s.Keys) == 0 {
			continue
		}
		ks := sortedSet(s.Keys)
		for _, k := range ks {
			known[k] = true
		}
		keySets[fmt.Sprint(ks)] = true
	}
	var names []string
	for _, e := range c.Entries {
		if cfg.MetadataFallback == MetadataFallbackList && e.Name == FallbackListKey {
			continue
		}
		names = append(names, e.Name)
		if err := lbmodel.ValidateValue(e.Value); err != nil {
			add(lbmodel.SevWarning, "criteria-value", "criterion %s can never match: %v", e.Name, err)
		}
		if _, isList := e.Value.([]any); isList && cfg.ListAsAny {
			add(lbmodel.SevWarning, "criteria-list-as-any", "criterion %s is a list: with list_as_any host lists are split into elements, so only a host list holding this list as an element matches", e.Name)
		}
		if !known[e.Name] {
			add(lbmodel.SevWarning, "criteria-unknown-key", "criterion %s is in no subset selector", e.Name)
		}
	}
	sort.Strings(names)
	if len(names) > 0 && !keySets[fmt.Sprint(names)] && !cfg.AllowRedundantKeys {
		add(lbmodel.SevInfo, "criteria-no-selector", "no selector has exactly the keys %v: the request always falls back", names)
	}
	return out
}
