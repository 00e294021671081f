package lint

import "github.com/lbctl/lbctl/analyze/config"

// withoutUnknown drops the findings that stand where a template placeholder
// left a value unknown: they would depend on it (two unknown ports are no
// duplicate address). The loader's template notice (LB0001) stays.
func withoutUnknown(cfgs []*config.Config, fs []Finding) []Finding {
	if len(cfgs) == 0 {
		return fs
	}
	src := cfgs[0].Sources
	out := fs[:0]
	for _, f := range fs {
		if f.Rule != "LB0001" && src.Unknown(f.Pos) {
			continue
		}
		out = append(out, f)
	}
	return out
}
