package lint

// LB1310 subset-metadata-namespace (SUB-METADATA-NAMESPACE).
var _ = register(&Rule{
	ID: "LB1310", Name: "subset-metadata-namespace", Spec: "SUB-METADATA-NAMESPACE",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "An endpoint of a subset cluster carries a selector key in a filter_metadata namespace other than " +
		"envoy.lb, and not under envoy.lb. The docs: \"Host metadata for subset load balancing must be placed " +
		"under the filter name envoy.lb\"; the subset LB reads only that namespace, so the host joins no subset " +
		"for that key.",
	Hint: "Move the key under filter_metadata: {envoy.lb: {...}}.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if !hasSubsets(cl) || cl.Assignment == nil {
				continue
			}
			keys := map[string]bool{}
			for _, ks := range selectorKeySets(cl) {
				for _, k := range ks {
					keys[k] = true
				}
			}
			for _, loc := range cl.Assignment.GetEndpoints() {
				for _, ep := range loc.GetLbEndpoints() {
					fm := ep.GetMetadata().GetFilterMetadata()
					lb := fm["envoy.lb"].GetFields()
					for ns, st := range fm {
						if ns == "envoy.lb" {
							continue
						}
						for k := range st.GetFields() {
							if _, ok := lb[k]; keys[k] && !ok {
								p.Report(p.pos(ep, "metadata"), "cluster %q: subset key %q is under filter_metadata %q; the subset LB reads only envoy.lb", cl.Name(), k, ns)
							}
						}
					}
				}
			}
		}
	},
})
