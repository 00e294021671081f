package lint

// LB1706 grpc-lrs-not-self (GRPC-LRS-NOT-SELF).
var _ = register(&Rule{
	ID: "LB1706", Name: "grpc-lrs-not-self", Spec: "GRPC-LRS-NOT-SELF",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "lrs_server set to anything but self. A27: \"If the lrs_server field is set, it must have its self " +
		"field set\"; both grpc-go (validateClusterAndConstructClusterUpdate) and C-core NACK the cluster.",
	Hint: "Use lrs_server: {self: {}}, or drop lrs_server for gRPC clients.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if c.GetLrsServer() != nil && c.GetLrsServer().GetSelf() == nil {
				p.Report(p.pos(c, "lrs_server"), "cluster %q: gRPC NACKs an lrs_server that is not self", c.GetName())
			}
		}
	},
})
