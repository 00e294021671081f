package lint

import "strings"

// LB1302 subset-route-no-selector (SUB-ROUTE-NO-SELECTOR).
var _ = register(&Rule{
	ID: "LB1302", Name: "subset-route-no-selector", Spec: "SUB-ROUTE-NO-SELECTOR",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A route's metadata_match (merged with its weighted cluster's, which wins per key) whose key set " +
		"equals no subset selector of the target cluster. The subset LB looks subsets up by the exact key set " +
		"of the criteria, so this route's metadata_match can never select a subset: every request takes the " +
		"fallback policy.",
	Hint: "Add a subset selector with exactly these keys, or change the route's metadata_match.",
	Check: func(p *Pass) {
		for _, rt := range p.Routes() {
			cl := p.Cfg.Cluster(rt.Cluster)
			if cl == nil || !rt.HasMatch() || !hasSubsets(cl) || len(matchKeys(rt)) == 0 {
				continue
			}
			keys := matchKeys(rt)
			if !selectorFor(cl, keys) {
				p.Report(p.pos(rt.Action, "metadata_match"), "route to %q matches on keys [%s], but no subset selector of the cluster has exactly these keys; it always falls back", rt.Cluster, strings.Join(keys, ", "))
			}
		}
	},
})
