package lint

// LB1306 subset-match-on-plain-cluster (SUB-MATCH-ON-PLAIN-CLUSTER).
var _ = register(&Rule{
	ID: "LB1306", Name: "subset-match-on-plain-cluster", Spec: "SUB-MATCH-ON-PLAIN-CLUSTER",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A route with metadata_match to a cluster without subset selectors. Only the subset LB reads the " +
		"criteria; without lb_subset_config selectors they are ignored and all hosts are used.",
	Hint: "Add lb_subset_config with a matching selector to the cluster, or drop metadata_match.",
	Check: func(p *Pass) {
		for _, rt := range p.Routes() {
			cl := p.Cfg.Cluster(rt.Cluster)
			if cl == nil || !rt.HasMatch() || hasSubsets(cl) || p.Model(cl).IsAggregate {
				continue
			}
			p.Report(p.pos(rt.Action, "metadata_match"), "route to %q has metadata_match, but the cluster has no subset selectors: the criteria are ignored", rt.Cluster)
		}
	},
})
