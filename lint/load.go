package lint

import "github.com/lbctl/lbctl/analyze/config"

// loadRule reports the loader's problems of one code (config.Problem.Code)
// as findings, with the problem's own severity: the loader knows whether
// the input is still usable (an unknown field inside LB config is an error,
// one in a listener a warning).
func loadRule(code string) func(p *Pass) {
	return func(p *Pass) {
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
			p.ReportSev(sev, pr.Pos, "%s", pr.Msg)
		}
	}
}

// unusedSuppressionID is the rule Run reports unused suppressions under.
const unusedSuppressionID = "LB0013"
