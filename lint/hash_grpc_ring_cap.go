package lint

import "github.com/lbctl/lbctl/lbmodel/grpc"

// LB1407 hash-grpc-ring-cap (HASH-GRPC-RING-CAP).
var _ = register(&Rule{
	ID: "LB1407", Name: "hash-grpc-ring-cap", Spec: "HASH-GRPC-RING-CAP",
	Severity: map[Target]Severity{TargetGRPC: SevWarning},
	Doc: "A ring hash size above gRPC's local cap (4096 by default). gRFC A42: sizes \"greater than the " +
		"locally configured cap ... will be treated as the locally configured cap\" (grpc-go " +
		"GRPC_RING_HASH_CAP, lbmodel.GRPCDefaultRingCap). Envoy builds the configured size, so the Envoy and " +
		"gRPC rings differ in granularity. Warning when minimum_ring_size exceeds the cap (the author expects " +
		"a bigger ring than gRPC builds); info when only an explicit maximum does.",
	Hint: "Keep ring sizes at or below 4096 for gRPC clients, or raise GRPC_RING_HASH_CAP on them.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if p.Model(cl).Policy != "RING_HASH" {
				continue
			}
			rs := p.rings(cl.Proto)
			if len(rs) == 0 {
				continue
			}
			r := rs[0]
			switch {
			case r.min > grpc.DefaultRingCap:
				p.Report(p.pos(r.msg, "minimum_ring_size"), "cluster %q: minimum_ring_size %d exceeds gRPC's ring cap %d; gRPC builds at most %d entries",
					cl.Name(), r.min, grpc.DefaultRingCap, grpc.DefaultRingCap)
			case r.max > grpc.DefaultRingCap && r.max != defaultMaxRing:
				p.ReportSev(SevInfo, p.pos(r.msg, "maximum_ring_size"), "cluster %q: maximum_ring_size %d exceeds gRPC's ring cap %d; gRPC caps it",
					cl.Name(), r.max, grpc.DefaultRingCap)
			}
		}
	},
})
