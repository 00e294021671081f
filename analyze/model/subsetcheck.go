package model

import (
	"fmt"
	"maps"
	"slices"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/subset"

	"github.com/lbctl/lbctl/analyze/config"
)

// check validates the selectors one by one, so each rejection points at
// its own selector, builds the subset load balancer (s.LB) when they are
// valid, and reports the settings it warns about that have a place in the
// file, then the kinds of values that can never match.
func (s *SubsetSetup) check(out *placed, cl *config.Cluster, hosts []lbmodel.Host) {
	if s.build(out, hosts) && s.Config.FallbackPolicy == subset.FallbackDefault && len(s.Config.DefaultSubset) > 0 {
		if def, _ := s.LB.DefaultSubset(); len(def) == 0 && len(hosts) > 0 {
			*out = append(*out, placedProblem{config.Place{Msg: s.src, Field: "default_subset"}, config.Problem{Severity: config.SevWarning, Code: config.CodeInvalidValue, Msg: "default_subset " + lbmodel.NewMatchCriteria(s.Config.DefaultSubset).String() + " matches no host: the DEFAULT_SUBSET fallback returns no host"}})
		}
	}
	s.kindProblems(out, cl, hosts)
}

// build sets s.LB unless a selector is rejected or subsets are off; false
// when it does not.
func (s *SubsetSetup) build(out *placed, hosts []lbmodel.Host) bool {
	bad := subset.SelectorErrors(s.Config)
	for i, sel := range s.Config.Selectors {
		switch {
		case len(sel.Keys) == 0:
			*out = append(*out, placedProblem{config.Place{Msg: s.selPos[i]}, config.Problem{Severity: config.SevWarning, Code: config.CodeInvalidValue, Msg: fmt.Sprintf("subset_selectors[%d] has no keys: Envoy drops it silently", i)}})
		case bad[i] != nil:
			*out = append(*out, placedProblem{config.Place{Msg: s.selPos[i], Field: "fallback_keys_subset"}, config.Problem{Severity: config.SevError, Code: config.CodeInvalidValue, Msg: bad[i].Error() + " (Envoy rejects the cluster)"}})
		}
	}
	if slices.ContainsFunc(bad, func(err error) bool { return err != nil }) || !s.Config.Enabled() {
		return false
	}
	lb, err := subset.NewLB(s.Config, hosts)
	if err != nil {
		*out = append(*out, placedProblem{s.at, config.Problem{Severity: config.SevError, Code: config.CodeInvalidValue, Msg: err.Error()}})
		return false
	}
	s.LB = lb
	for _, i := range lb.LostSelectorPolicies {
		*out = append(*out, placedProblem{config.Place{Msg: s.selPos[i], Field: "fallback_policy"}, config.Problem{Severity: config.SevWarning, Code: config.CodeInvalidValue, Msg: fmt.Sprintf("subset_selectors[%d] fallback_policy %s is ignored: an earlier selector already created the path for its keys (initSubsetSelectorMap keeps the first)",
			i, s.Config.Selectors[i].FallbackPolicy)}})
	}
	return true
}

// kindProblems reports values whose kind no host's shares: a
// default_subset value (once the load balancer is built), and selector
// keys whose values are of mixed kinds across hosts (a string "1.0" on
// one host, a number 1 on another): they form different subsets and no
// single criterion matches both.
func (s *SubsetSetup) kindProblems(out *placed, cl *config.Cluster, hosts []lbmodel.Host) {
	for _, k := range SortedMapKeys(s.Config.DefaultSubset) {
		if s.LB == nil || s.defaults == nil {
			break
		}
		if msg := KindMismatch(k, s.Config.DefaultSubset[k], hosts, s.Config.ListAsAny); msg != "" {
			*out = append(*out, placedProblem{config.Place{Msg: s.defaults, Field: k, Value: true}, config.Problem{Severity: config.SevWarning, Code: config.CodeType, Msg: "default_subset " + msg}})
		}
	}
	keys := map[string]bool{}
	for _, sel := range s.Config.Selectors {
		for _, k := range sel.Keys {
			keys[k] = true
		}
	}
	type seen struct {
		kind lbmodel.ValueKind
		addr string
	}
	first := map[string]seen{}
	for _, group := range cl.Assignment.GetEndpoints() {
		for _, ep := range group.GetLbEndpoints() {
			md := ep.GetMetadata().GetFilterMetadata()["envoy.lb"]
			addr := config.FormatAddress(ep.GetEndpoint().GetAddress())
			for _, k := range slices.Sorted(maps.Keys(md.GetFields())) {
				if !keys[k] {
					continue
				}
				kind := lbmodel.KindOf(md.GetFields()[k].AsInterface())
				f, ok := first[k]
				if !ok {
					first[k] = seen{kind, addr}
					continue
				}
				if f.kind != kind {
					*out = append(*out, placedProblem{config.Place{Msg: md, Field: k, Value: true}, config.Problem{Severity: config.SevWarning, Code: config.CodeType,
						Msg: fmt.Sprintf("metadata %s of %s is a %s but %s's is a %s: they never fall in the same subset, and a criterion matches only one kind", k, addr, kind, f.addr, f.kind)}})
				}
			}
		}
	}
}

// KindMismatch says why a wanted value can match no host although hosts
// carry the key: every host's value is of another kind (the classic
// `v: 1.0` number against `v: "1.0"` string). "" when it can match or no
// host has the key.
// With list_as_any a host list stands for its elements.
func KindMismatch(key string, want any, hosts []lbmodel.Host, listAsAny bool) string {
	kinds := map[lbmodel.ValueKind]bool{}
	var example any
	for _, h := range hosts {
		v, ok := h.Metadata[key]
		if !ok {
			continue
		}
		vals := []any{v}
		if l, isList := v.([]any); isList && listAsAny {
			vals = append(vals, l...)
		}
		for _, e := range vals {
			if lbmodel.KindOf(e) == lbmodel.KindOf(want) {
				return ""
			}
		}
		if len(kinds) == 0 {
			example = v
		}
		kinds[lbmodel.KindOf(v)] = true
	}
	if len(kinds) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s is a %s, but the hosts' %s values are of another kind (e.g. %s): they never match (quote the value to make it a string)",
		key, lbmodel.FormatValue(want), lbmodel.KindOf(want), key, lbmodel.FormatValue(example))
}

// SortedMapKeys is m's keys in order.
func SortedMapKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
