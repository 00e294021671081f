package subset

import (
	"fmt"
	"sort"

	"github.com/lbctl/lbctl/lbmodel"
)

// Problem is one finding about a request's criteria (CheckCriteria); the
// configuration's own findings, with positions, are analyze/model's.
type Problem struct {
	Severity lbmodel.Severity
	Code     string
	Message  string
}

func (p Problem) String() string { return p.Severity.String() + " " + p.Code + ": " + p.Message }

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
