package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
)

// envoyWritten reports whether file is an admin dump Envoy wrote itself
// (config.Config.EnvoyWritten). Envoy accepted everything in it, and it
// spells fields as its own build does (hidden_envoy_deprecated_*, v2 type
// URLs, zero locality weights of unweighted clusters), so spelling and PGV
// findings there are not the user's to fix.
func (s *shared) envoyWritten(file string) bool { return s.cfg.EnvoyWritten(file) }

// partialDump reports whether an Envoy-written dump is provably trimmed
// (config.Config.Trimmed: it holds an EDS assignment for a cluster it does
// not list), so "not defined" findings about it say nothing about the real
// proxy.
func (s *shared) partialDump(file string) bool { return s.cfg.Trimmed(file) }

// unmodelledSummary folds the loader's unknown-type problems of one file
// into one info finding naming the skipped types (per-field reporting
// comes back with Options.Strict).
func unmodelledSummary(p *Pass, probs []config.Problem) {
	type acc struct {
		first config.Pos
		n     int
		types map[string]bool
	}
	byFile := map[string]*acc{}
	var files []string
	for _, pr := range probs {
		a := byFile[pr.Pos.File]
		if a == nil {
			a = &acc{first: pr.Pos, types: map[string]bool{}}
			byFile[pr.Pos.File] = a
			files = append(files, pr.Pos.File)
		}
		a.n++
		a.types[typeOfMsg(pr.Msg)] = true
	}
	for _, f := range files {
		a := byFile[f]
		var names []string
		for t := range a.types {
			names = append(names, t)
		}
		sort.Strings(names)
		p.ReportSev(SevInfo, a.first, "%s", fmt.Sprintf("%d typed configs of types lbctl does not model were skipped: %s",
			a.n, strings.Join(names, ", ")))
	}
}

// typeOfMsg extracts the quoted type URL's message name from an
// unknown-type problem text.
func typeOfMsg(msg string) string {
	i := strings.Index(msg, "\"")
	if i < 0 {
		return msg
	}
	rest := msg[i+1:]
	if j := strings.Index(rest, "\""); j >= 0 {
		rest = rest[:j]
	}
	if k := strings.LastIndex(rest, "/"); k >= 0 {
		rest = rest[k+1:]
	}
	return rest
}
