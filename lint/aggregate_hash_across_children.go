package lint

import "github.com/lbctl/lbctl/analyze/model"

// LB1211 aggregate-hash-across-children (AGG-HASH-ACROSS-CHILDREN).
var _ = register(&Rule{
	ID: "LB1211", Name: "aggregate-hash-across-children", Spec: "AGG-HASH-ACROSS-CHILDREN",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "Consistent hashing below an aggregate cluster. Envoy's aggregate LB picks the child cluster and " +
		"priority with random_.random(), not the request hash, and only then the child's ring; during partial " +
		"failover the same key can land in different clusters. gRPC uses one child at a time, so keys stay in " +
		"one cluster but remap wholesale on failover.",
	Hint: "Expect key affinity only while a single child takes all traffic.",
	Check: func(p *Pass) {
		for _, a := range p.aggregates() {
			for i, ch := range a.children {
				if cl := p.Cfg.Cluster(ch); cl != nil && model.IsHashPolicy(p.Model(cl).Policy) {
					p.Report(p.childPos(a, i), "child %q of aggregate %q hashes requests, but the aggregate chooses the child at random, not by the hash", ch, a.cl.Name())
				}
			}
		}
	},
})
