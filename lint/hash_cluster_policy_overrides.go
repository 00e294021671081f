package lint

// LB1411 hash-cluster-policy-overrides (HASH-CLUSTER-POLICY-OVERRIDES).
var _ = register(&Rule{
	ID: "LB1411", Name: "hash-cluster-policy-overrides", Spec: "HASH-CLUSTER-POLICY-OVERRIDES",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevWarning},
	Doc: "A typed RingHash/Maglev consistent_hashing_lb_config.hash_policy. common.proto: \"If hash_policy is " +
		"set, then route level hash policy will be ignored\" - reported for Envoy when a loaded route to the " +
		"cluster has its own hash_policy. gRPC's converters read only ring sizes and the hash function, so a " +
		"gRPC client uses the route's policy (or a random hash) instead: always reported for gRPC.",
	Hint: "Keep the hash policy in one place, on the routes if gRPC clients share the config.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if !clusterHashPolicy(p, cl.Proto) {
				continue
			}
			shadowed := false
			for _, rt := range p.RoutesTo(cl.Name()) {
				shadowed = shadowed || rt.HasHashPolicy()
			}
			switch {
			case p.Target == TargetGRPC:
				p.Report(p.pos(cl.Proto, "load_balancing_policy"), "cluster %q: gRPC ignores the cluster-level hash_policy and hashes by the route's policy", cl.Name())
			case shadowed:
				p.Report(p.pos(cl.Proto, "load_balancing_policy"), "cluster %q: the cluster-level hash_policy overrides the routes' hash_policy", cl.Name())
			}
		}
	},
})
