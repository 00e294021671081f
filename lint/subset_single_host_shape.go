package lint

// LB1308 subset-single-host-shape (SUB-SINGLE-HOST-SHAPE).
var _ = register(&Rule{
	ID: "LB1308", Name: "subset-single-host-shape", Spec: "SUB-SINGLE-HOST-SHAPE",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "single_host_per_subset on a selector when lb_subset_config has more than one selector or the " +
		"selector more than one key. cluster.proto: \"this mode is only supported if subset_selectors has only " +
		"one entry, and keys contains only one entry\"; the subset LB's single-host fast path " +
		"(SubsetLoadBalancer, single_host_per_subset_map_) is built for exactly that shape.",
	Hint: "Use single_host_per_subset only with one selector of one key.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			sels := cl.Proto.GetLbSubsetConfig().GetSubsetSelectors()
			for _, s := range sels {
				if s.GetSingleHostPerSubset() && (len(sels) != 1 || len(s.GetKeys()) != 1) {
					p.Report(p.pos(s, "single_host_per_subset"), "cluster %q: single_host_per_subset needs exactly one selector with one key (have %d selectors, %d keys)", cl.Name(), len(sels), len(s.GetKeys()))
				}
			}
		}
	},
})
