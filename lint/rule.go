// Package lint checks a loaded Envoy configuration for load-balancing
// mistakes. It is a rule engine in the style of actionlint: every rule
// lives in its own file, has a stable ID (LBnnnn, never reused), a
// kebab-case name, a severity per target data plane, documentation and a
// hint, and fixtures under ../fixtures/lint that trigger it and do not.
//
// Each rule records its name in the rule catalogue (e.g.
// AGG-UNKNOWN-CHILD) in Spec.
package lint

import (
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
)

// Severity of a finding: the loader's scale (config.Severity), so a
// loader problem keeps its severity as a finding. Higher is more serious.
type Severity = config.Severity

const (
	SevInfo    = config.SevInfo
	SevWarning = config.SevWarning
	SevError   = config.SevError
)

// ParseSeverity reads error, warning, info or none (none is 0: nothing
// reaches it, which is what --fail-on none means).
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(s) {
	case "error":
		return SevError, true
	case "warning":
		return SevWarning, true
	case "info":
		return SevInfo, true
	case "none":
		return config.SevNone, true
	}
	return config.SevNone, false
}

// Target is the data plane a rule judges the configuration for.
type Target string

const (
	TargetEnvoy Target = "envoy"
	TargetGRPC  Target = "grpc"
)

// Rule is one check.
type Rule struct {
	// ID is LBnnnn: LB00yy load problems, LB1xyy with x the catalogue
	// group (0 PGV, 1 Envoy semantic, 2 aggregate, 3 subsets, 4 hashing,
	// 5 priorities, 6 weights, 7 gRPC, 8 routes, 9 lbctl's own).
	ID   string
	Name string // kebab-case, stable
	// Spec is the catalogue's name of the rule (lint-rules.md), or "" for
	// rules that are not in the catalogue (load problems, lbctl's own).
	Spec string
	// Severity per target; a rule does not run for a target it has no
	// severity for.
	Severity map[Target]Severity
	Doc      string // one paragraph: what, why, and where Envoy says so
	Hint     string // one line: how to fix
	Check    func(p *Pass)
}

// Applies reports whether the rule runs for target t.
func (r *Rule) Applies(t Target) bool { return r.Severity[t] > 0 }

var registry = map[string]*Rule{}

// register adds a rule; IDs and names must be unique (rules_test checks).
func register(r *Rule) *Rule {
	if prev, ok := registry[r.ID]; ok {
		// Keep the first; the registry test reports the duplicate.
		duplicates = append(duplicates, prev.ID)
		return r
	}
	registry[r.ID] = r
	return r
}

var duplicates []string

// Rules lists every rule ordered by ID.
func Rules() []*Rule {
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup finds a rule by ID (LB1203, case-insensitive), name
// (aggregate-unknown-child) or catalogue name (AGG-UNKNOWN-CHILD).
func Lookup(key string) *Rule {
	if r := registry[strings.ToUpper(key)]; r != nil {
		return r
	}
	for _, r := range registry {
		if strings.EqualFold(r.Name, key) || (r.Spec != "" && strings.EqualFold(r.Spec, key)) {
			return r
		}
	}
	return nil
}
