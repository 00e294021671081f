package lint

import "strings"

// LB1209 aggregate-mixed-child-lb (AGG-MIXED-CHILD-LB).
var _ = register(&Rule{
	ID: "LB1209", Name: "aggregate-mixed-child-lb", Spec: "AGG-MIXED-CHILD-LB",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevWarning},
	Doc: "The children of an aggregate cluster use different LB policies. Envoy picks the child with the " +
		"aggregate's priority arithmetic and then uses each child's own policy; grpc-go uses the aggregate's " +
		"policy for all children (A37/A52), C-core each child's own (A75). The same request can be balanced " +
		"differently by Envoy and gRPC clients.",
	Hint: "Use one LB policy for all children of an aggregate.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			var pols []string
			seen := map[string]bool{}
			for _, ch := range a.children {
				cl := p.Cfg.Cluster(ch)
				if cl == nil || p.isAggregate(ch) {
					continue
				}
				pol := p.Model(cl).Policy
				if !seen[pol] {
					seen[pol] = true
					pols = append(pols, ch+": "+pol)
				}
			}
			if len(pols) > 1 {
				p.Report(p.pos(a.cl.Proto, "name"), "children of aggregate cluster %q use different LB policies (%s)", a.cl.Name(), strings.Join(pols, ", "))
			}
		}
	},
})
