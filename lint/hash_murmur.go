package lint

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	ringhashv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
)

// LB1405 hash-murmur (HASH-MURMUR).
var _ = register(&Rule{
	ID: "LB1405", Name: "hash-murmur", Spec: "HASH-MURMUR",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "A ring hash with hash_function MURMUR_HASH_2 (legacy ring_hash_lb_config under RING_HASH, or a " +
		"typed RingHash). Envoy supports it; gRPC NACKs it: A42 requires XX_HASH, grpc-go \"unsupported " +
		"ring_hash hash function\", C-core \"invalid hash function\" (lbmodel.GRPCSelectPolicy).",
	Hint: "Use hash_function: XX_HASH (ring positions change, so keys remap once).",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			if rh := c.GetRingHashLbConfig(); rh.GetHashFunction() == clusterv3.Cluster_RingHashLbConfig_MURMUR_HASH_2 && c.GetLbPolicy() == clusterv3.Cluster_RING_HASH {
				p.Report(p.pos(rh, "hash_function"), "cluster %q: gRPC NACKs ring hash with MURMUR_HASH_2 (XX_HASH only)", c.GetName())
			}
			for _, m := range p.Typed(c) {
				if rh, ok := m.(*ringhashv3.RingHash); ok && rh.GetHashFunction() == ringhashv3.RingHash_MURMUR_HASH_2 {
					p.Report(p.pos(rh, "hash_function"), "cluster %q: gRPC NACKs RingHash with MURMUR_HASH_2 (XX_HASH only)", c.GetName())
				}
			}
		}
	},
})
