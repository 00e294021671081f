package lint

import (
	"reflect"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
)

// LB1304 subset-default-empty (SUB-DEFAULT-SUBSET-EMPTY).
var _ = register(&Rule{
	ID: "LB1304", Name: "subset-default-empty", Spec: "SUB-DEFAULT-SUBSET-EMPTY",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "fallback_policy DEFAULT_SUBSET with a default_subset no endpoint matches. cluster.proto: \"It is " +
		"valid for no hosts to match, in which case the behavior is the same as a fallback_policy of " +
		"NO_FALLBACK\" - the fallback then fails every request it handles.",
	Hint: "Make default_subset match real endpoint metadata, or use ANY_ENDPOINT.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			s := cl.Proto.GetLbSubsetConfig()
			if !hasSubsets(cl) || cl.Assignment == nil || s.GetFallbackPolicy() != clusterv3.Cluster_LbSubsetConfig_DEFAULT_SUBSET {
				continue
			}
			want := s.GetDefaultSubset().AsMap()
			matched := false
			for _, h := range p.Model(cl).Hosts {
				all := true
				for k, v := range want {
					if hv, ok := h.Metadata[k]; !ok || !reflect.DeepEqual(hv, v) {
						all = false
					}
				}
				matched = matched || all
			}
			if !matched {
				p.Report(p.pos(s, "default_subset"), "cluster %q: no endpoint matches default_subset, so the fallback behaves as NO_FALLBACK", cl.Name())
			}
		}
	},
})
