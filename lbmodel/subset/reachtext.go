package subset

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/lbmodel"
)

// Describe says in one clause why no request reaches u's hosts, e.g.
// "endpoint 10.0.0.2:80 is in no subset and fallback_policy NO_FALLBACK
// picks no host". list renders host indexes; the caller escapes and caps
// the names.
func (u Unreachability) Describe(list func([]int) string) string {
	var none, single []int
	var last UnreachedHost
	for _, h := range u.Hosts {
		if len(h.SingleHost) == 0 {
			none = append(none, h.Host)
		} else {
			single = append(single, h.Host)
			last = h
		}
	}
	var parts []string
	if len(none) > 0 {
		parts = append(parts, countPhrase(none, list)+" in no subset")
	}
	if len(single) == 1 {
		h := last
		vals := make([]string, len(h.SingleHost))
		for i, e := range h.SingleHost {
			vals[i] = lbmodel.NewMatchCriteria(e.Values()).String()
		}
		s, verb := "", "returns"
		if len(vals) > 1 {
			s, verb = "s", "return"
		}
		parts = append(parts, fmt.Sprintf("%s only in single_host_per_subset subset%s %s, which %s only %s",
			countPhrase(single, list), s, strings.Join(vals, ", "), verb, list(uniq(h.Returned))))
	} else if len(single) > 1 {
		parts = append(parts, countPhrase(single, list)+" only in single_host_per_subset subsets, which return another host")
	}
	sep := " and "
	switch {
	case len(parts) > 1:
		sep = "; and "
	case len(single) > 0: // after a "which" clause
		sep = ", and "
	}
	return strings.Join(parts, "; ") + sep + u.Fallback.clause(len(u.Hosts))
}

// String says why no fallback pool holds the hosts.
func (f FallbackReach) String() string { return f.clause(2) }

// clause is String for n hosts.
func (f FallbackReach) clause(n int) string {
	them := "them"
	if n == 1 {
		them = "it"
	}
	def := "default_subset " + lbmodel.NewMatchCriteria(f.DefaultSubset).String()
	var s string
	switch {
	case f.Policy == FallbackDefault:
		s = def + " does not match " + them
	case len(f.DefaultSelectors) > 0:
		s = fmt.Sprintf("fallback_policy %s picks no host, and the %s that %s DEFAULT_SUBSET falls back to does not match %s",
			f.Policy, def, selectorNames(f.DefaultSelectors), them)
	default:
		s = "fallback_policy " + f.Policy.String() + " picks no host"
	}
	var more []string
	if f.PanicModeAny && f.Policy == FallbackNoFallback {
		more = append(more, "panic_mode_any is never used under NO_FALLBACK")
	}
	if len(f.LostAny) > 0 {
		more = append(more, selectorNames(f.LostAny)+" ANY_ENDPOINT is never stored: an earlier selector's sorted keys begin with its own")
	}
	if len(f.LostDefault) > 0 {
		more = append(more, selectorNames(f.LostDefault)+" DEFAULT_SUBSET is never stored: an earlier selector's sorted keys begin with its own")
	}
	switch {
	case len(f.KeysSubset) > 0 && f.FallbackList:
		more = append(more, selectorNames(f.KeysSubset)+" KEYS_SUBSET and fallback_list only retry subsets")
	case len(f.KeysSubset) > 0:
		more = append(more, selectorNames(f.KeysSubset)+" KEYS_SUBSET only retries subsets")
	case f.FallbackList:
		more = append(more, "fallback_list only retries subsets")
	}
	if len(more) > 0 {
		s += " (" + strings.Join(more, "; ") + ")"
	}
	return s
}

// selectorNames is "selector 1's" or "selectors 0, 2's".
func selectorNames(idx []int) string {
	n := make([]string, len(idx))
	for i, x := range idx {
		n[i] = fmt.Sprint(x)
	}
	if len(n) == 1 {
		return "selector " + n[0] + "'s"
	}
	return "selectors " + strings.Join(n, ", ") + "'s"
}

// countPhrase is "endpoint A is" or "2 endpoints (A, B) are".
func countPhrase(idx []int, list func([]int) string) string {
	if len(idx) == 1 {
		return "endpoint " + list(idx) + " is"
	}
	return fmt.Sprintf("%d endpoints (%s) are", len(idx), list(idx))
}

// uniq drops repeated indexes, keeping the first of each.
func uniq(idx []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, i := range idx {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}
