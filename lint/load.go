package lint

import "github.com/lbctl/lbctl/analyze/config"

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
		for _, pr := range p.Cfg.Problems {
			if pr.Code != code {
				continue
			}
			sev := SevError
			switch pr.Severity {
			case config.SevWarning:
				sev = SevWarning
			case config.SevInfo:
				sev = SevInfo
			}
			if !p.strict {
				switch code {
				case config.CodeUnknownField, config.CodeLegacy:
					if p.envoyWritten(pr.Pos.File) {
						continue
					}
				case config.CodeUnknownType:
					unknownTypes = append(unknownTypes, pr)
					continue
				case config.CodeReference:
					if p.partialDump(pr.Pos.File) {
						sev = SevInfo
					}
				}
			}
			p.ReportSev(sev, pr.Pos, "%s", pr.Msg)
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
