package lint

import routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

// LB1803 weighted-clusters-hash-ignored: lbctl's own rule.
var _ = register(&Rule{
	ID: "LB1803", Name: "weighted-clusters-hash-ignored",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A route with a hash_policy whose weighted_clusters split between several clusters without " +
		"use_hash_policy. WeightedClusterSpecifierPlugin (weighted_cluster_specifier.cc) picks the cluster from " +
		"header_name's value if set, else from the route's hash only when use_hash_policy is true, else from " +
		"the stream's random id: the hash then only places the request inside whichever cluster was drawn, " +
		"so one client alternates between clusters and the affinity the hash_policy asks for is lost.",
	Hint: "Set weighted_clusters.use_hash_policy: true (Envoy >= 1.36) so the hash also picks the cluster.",
	Check: func(p *Pass) {
		seen := map[*routev3.RouteAction]bool{}
		for _, rt := range p.Routes() {
			a := rt.Action
			if a == nil || seen[a] {
				continue
			}
			seen[a] = true
			wc := a.GetWeightedClusters()
			if wc == nil || len(a.GetHashPolicy()) == 0 || wc.GetUseHashPolicy().GetValue() || wc.GetHeaderName() != "" {
				continue
			}
			n := 0
			for _, c := range wc.GetClusters() {
				if c.GetWeight().GetValue() > 0 {
					n++
				}
			}
			if n < 2 {
				continue
			}
			p.Report(p.pos(a, "hash_policy"), "%s: hash_policy does not choose among its %d weighted clusters (no use_hash_policy), so each request draws a cluster at random", rt.Label, n)
		}
	},
})
