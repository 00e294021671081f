package lint

import (
	"github.com/lbctl/lbctl/analyze/model"
	"google.golang.org/protobuf/types/known/structpb"
)

// LB1410 hash-key-metadata (HASH-KEY-METADATA).
var _ = register(&Rule{
	ID: "LB1410", Name: "hash-key-metadata", Spec: "HASH-KEY-METADATA",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "Problems with the envoy.lb hash_key endpoint metadata of a RING_HASH/MAGLEV cluster: a value that " +
		"is not a string (ThreadAwareLoadBalancerBase HashingLoadBalancer hashKey uses only a string, " +
		"otherwise falls back to the address), the same key on two endpoints of one priority (identical " +
		"ring/table positions: one shadows the other), or a key on only some endpoints of a priority. gRPC " +
		"A76 reads the same key (grpc-go by default, C-core behind an env var), so placements can also differ " +
		"between Envoy and gRPC versions.",
	Hint: "Give every endpoint a distinct string hash_key, or none.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if !model.IsHashPolicy(p.Model(cl).Policy) || cl.Assignment == nil {
				continue
			}
			type prio struct{ with, without int }
			seen := map[uint32]map[string]bool{}
			counts := map[uint32]*prio{}
			for _, loc := range cl.Assignment.GetEndpoints() {
				pr := loc.GetPriority()
				if counts[pr] == nil {
					counts[pr], seen[pr] = &prio{}, map[string]bool{}
				}
				for _, ep := range loc.GetLbEndpoints() {
					md := ep.GetMetadata().GetFilterMetadata()["envoy.lb"]
					v, ok := md.GetFields()["hash_key"]
					if !ok {
						counts[pr].without++
						continue
					}
					counts[pr].with++
					s, isStr := v.GetKind().(*structpb.Value_StringValue)
					switch {
					case !isStr:
						p.Report(p.pos(ep, "metadata"), "cluster %q: envoy.lb hash_key is not a string; Envoy ignores it and hashes the address", cl.Name())
					case seen[pr][s.StringValue]:
						p.Report(p.pos(ep, "metadata"), "cluster %q: hash_key %q is used by another endpoint of priority %d; both get the same ring positions", cl.Name(), s.StringValue, pr)
					}
					if isStr {
						seen[pr][s.StringValue] = true
					}
				}
			}
			for _, loc := range cl.Assignment.GetEndpoints() {
				c := counts[loc.GetPriority()]
				if c != nil && c.with > 0 && c.without > 0 {
					p.Report(p.pos(loc, "lb_endpoints"), "cluster %q: only %d of %d endpoints at priority %d have an envoy.lb hash_key", cl.Name(), c.with, c.with+c.without, loc.GetPriority())
					c.with = 0 // once per priority
				}
			}
		}
	},
})
