package lint

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// loadRule reports the loader's problems of one code (config.Problem.Code)
// as findings, with the problem's own severity: the loader knows whether
// the input is still usable (an unknown field inside LB config is an error,
// one in a listener a warning).
//
// Unless Options.Strict: spelling problems (unknown field, v2 syntax) in a
// file Envoy wrote are dropped, since Envoy accepted it; unknown types
// become one info line per file; references into a provably trimmed dump
// become info.
func loadRule(code string) func(p *Pass) {
	return func(p *Pass) {
		var unknownTypes []config.Problem
		// Unless strict, a warning about one unknown field name is
		// reported once per file, with how often it recurs.
		type fieldKey struct{ file, field string }
		fieldSeen := map[fieldKey]int{} // index in p.out
		fieldCount := map[fieldKey]int{}
		for _, pr := range p.Cfg.Problems {
			// An unknown LB extension is an unknown type that lint keeps as
			// a finding of its own: info unless strict, since the config is
			// valid and the user has nothing to fix, but explain cannot
			// model that cluster or route.
			if pr.Code != code && !(code == config.CodeUnknownType && pr.Code == config.CodeUnknownLBType) {
				continue
			}
			sev := pr.Severity
			switch sev {
			case SevError:
				if code == config.CodeUnknownKind {
					sev = SevInfo // lbctl's refusal, not Envoy's: exit 3 says it
				}
			case SevWarning:
				if !p.strict && (code == config.CodeUnknownType || code == config.CodeReference) {
					sev = SevInfo // lbctl's limit or a partial input: no consequence shown
				}
			}
			if !p.strict {
				switch code {
				case config.CodeUnknownField, config.CodeLegacy:
					if p.envoyWritten(pr.Pos.File) {
						continue
					}
				case config.CodeUnknownType:
					if pr.Code == config.CodeUnknownLBType {
						sev = SevInfo
						break
					}
					unknownTypes = append(unknownTypes, pr)
					continue
				case config.CodeReference:
					if p.partialDump(pr.Pos.File) {
						sev = SevInfo
					}
				}
				if code == config.CodeUnknownField && sev != SevError {
					k := fieldKey{pr.Pos.File, quoted(pr.Msg)}
					fieldCount[k]++
					if _, ok := fieldSeen[k]; ok {
						continue
					}
					p.ReportSev(sev, pr.Pos, "%s", pr.Msg)
					fieldSeen[k] = len(*p.out) - 1
					continue
				}
			}
			p.ReportSev(sev, pr.Pos, "%s", pr.Msg)
		}
		for k, i := range fieldSeen {
			if n := fieldCount[k]; n > 1 {
				(*p.out)[i].Message += fmt.Sprintf(" (%d times in this file; %s lists each)", n, option.Strict)
			}
		}
		if len(unknownTypes) > 0 {
			unmodelledSummary(p, unknownTypes)
		}
	}
}

// unusedSuppressionID is the rule Run reports unused suppressions under.
const unusedSuppressionID = "LB0013"

// unionFiles is a configuration holding only the files of cfgs (each
// once), for the suppression comments they carry.
func unionFiles(cfgs []*config.Config) *config.Config {
	u := &config.Config{Sources: cfgs[0].Sources}
	seen := map[string]bool{}
	for _, c := range cfgs {
		for _, f := range c.Files {
			if !seen[f] {
				seen[f] = true
				u.Files = append(u.Files, f)
			}
		}
	}
	return u
}

// quoted is the first double-quoted string of msg (a field or type name).
func quoted(msg string) string {
	_, rest, ok := strings.Cut(msg, "\"")
	if !ok {
		return msg
	}
	name, _, _ := strings.Cut(rest, "\"")
	return name
}
