package lint

// LB1108 ring-min-gt-max (ENV-RING-MIN-GT-MAX).
var _ = register(&Rule{
	ID: "LB1108", Name: "ring-min-gt-max", Spec: "ENV-RING-MIN-GT-MAX",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "A ring hash minimum_ring_size larger than its maximum_ring_size (unset sizes count as the defaults " +
		"1024 and 8388608). RingHashLoadBalancer (ring_hash_lb.cc) throws \"ring hash: minimum_ring_size ({}) " +
		"> maximum_ring_size ({})\"; gRPC NACKs it (grpc-go ringhash parseConfig, C-core).",
	Hint: "Make minimum_ring_size <= maximum_ring_size.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			for _, r := range p.rings(cl.Proto) {
				if r.min > r.max {
					p.Report(p.pos(r.msg, "minimum_ring_size"), "cluster %q: minimum_ring_size %d > maximum_ring_size %d", cl.Name(), r.min, r.max)
				}
			}
		}
	},
})
