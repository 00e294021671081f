package lint

import (
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
)

// LB1110 keys-subset-invalid (ENV-KEYS-SUBSET).
var _ = register(&Rule{
	ID: "LB1110", Name: "keys-subset-invalid", Spec: "ENV-KEYS-SUBSET",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevInfo},
	Doc: "An invalid fallback_keys_subset on a subset selector. The SubsetSelector constructor (subset LB) " +
		"throws when it is set without fallback_policy KEYS_SUBSET, when KEYS_SUBSET has it empty, when it is " +
		"not a subset of the selector's keys, or when it equals the keys (which would recurse forever in " +
		"chooseHost).",
	Hint: "Use fallback_policy: KEYS_SUBSET with a strict, non-empty subset of the selector's keys.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			for _, sel := range cl.Proto.GetLbSubsetConfig().GetSubsetSelectors() {
				fk := sel.GetFallbackKeysSubset()
				keysSubset := sel.GetFallbackPolicy() == clusterv3.Cluster_LbSubsetConfig_LbSubsetSelector_KEYS_SUBSET
				var why string
				switch {
				case len(fk) > 0 && !keysSubset:
					why = "fallback_keys_subset can be set only for KEYS_SUBSET fallback_policy"
				case keysSubset && len(fk) == 0:
					why = "fallback_keys_subset cannot be empty"
				case keysSubset && !subsetOf(fk, sel.GetKeys()):
					why = "fallback_keys_subset must be a subset of selector keys"
				case keysSubset && len(uniq(fk)) == len(uniq(sel.GetKeys())):
					why = "fallback_keys_subset cannot be equal to keys"
				default:
					continue
				}
				p.Report(p.pos(sel, "fallback_keys_subset"), "cluster %q: %s", cl.Name(), why)
			}
		}
	},
})

func subsetOf(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func uniq(a []string) []string {
	s := slices.Clone(a)
	slices.Sort(s)
	return slices.Compact(s)
}
