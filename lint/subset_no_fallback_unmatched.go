package lint

import clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

// LB1303 subset-no-fallback-unmatched (SUB-NO-FALLBACK-UNMATCHED).
var _ = register(&Rule{
	ID: "LB1303", Name: "subset-no-fallback-unmatched", Spec: "SUB-NO-FALLBACK-UNMATCHED",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "A subset cluster with fallback_policy NO_FALLBACK (the default) that a route reaches without " +
		"metadata_match, or with criteria no selector has. cluster.proto: with NO_FALLBACK \"a result " +
		"equivalent to no healthy hosts is reported\": every such request fails with no healthy upstream.",
	Hint: "Set fallback_policy ANY_ENDPOINT or DEFAULT_SUBSET, or give the route a matching metadata_match.",
	Check: func(p *Pass) {
		for _, rt := range p.Routes() {
			cl := p.Cfg.Cluster(rt.Cluster)
			if cl == nil || !hasSubsets(cl) ||
				cl.Proto.GetLbSubsetConfig().GetFallbackPolicy() != clusterv3.Cluster_LbSubsetConfig_NO_FALLBACK {
				continue
			}
			switch {
			case !rt.HasMatch() || len(matchKeys(rt)) == 0:
				p.Report(rt.KeyPos, "route to subset cluster %q has no metadata_match and the cluster's fallback_policy is NO_FALLBACK: every request fails", rt.Cluster)
			case !selectorFor(cl, matchKeys(rt)):
				p.Report(rt.KeyPos, "route to subset cluster %q matches no selector and the cluster's fallback_policy is NO_FALLBACK: every request fails", rt.Cluster)
			}
		}
	},
})
