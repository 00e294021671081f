package lint

import "strings"

// LB1301 subset-selector-no-host (SUB-SELECTOR-NO-HOST).
var _ = register(&Rule{
	ID: "LB1301", Name: "subset-selector-no-host", Spec: "SUB-SELECTOR-NO-HOST",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A subset selector whose keys no endpoint carries all of (in filter_metadata envoy.lb). The subset " +
		"LB builds subsets only from hosts that have every key of a selector: \"If no host has all the keys, no " +
		"subsets result from the definition.\" Requests whose criteria use these keys always take the " +
		"fallback policy.",
	Hint: "Add the keys to the endpoints' envoy.lb metadata, or fix the selector's keys.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if !hasSubsets(cl) || cl.Assignment == nil {
				continue // without endpoints (EDS not loaded) nothing can be said
			}
			hosts := p.Model(cl).Hosts
			if len(hosts) == 0 {
				continue // no endpoint at all: every selector is vacuously empty
			}
			for _, sel := range cl.Proto.GetLbSubsetConfig().GetSubsetSelectors() {
				found := false
				for _, h := range hosts {
					all := true
					for _, k := range sel.GetKeys() {
						if _, ok := h.Metadata[k]; !ok {
							all = false
						}
					}
					found = found || all
				}
				if !found {
					p.Report(p.pos(sel, "keys"), "cluster %q: no endpoint has all of the selector keys [%s], so the selector yields no subset", cl.Name(), strings.Join(sel.GetKeys(), ", "))
				}
			}
		}
	},
})
