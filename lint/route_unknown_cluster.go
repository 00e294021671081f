package lint

// LB1801 route-unknown-cluster (RT-UNKNOWN-CLUSTER).
var _ = register(&Rule{
	ID: "LB1801", Name: "route-unknown-cluster", Spec: "RT-UNKNOWN-CLUSTER",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "A route (or weighted cluster entry) that targets a cluster not defined in the loaded configuration. " +
		"Static route configs validate clusters by default (validate_clusters) and fail to load; RDS routes to a " +
		"missing cluster answer 503 (no cluster); a route that sets cluster_not_found_response_code has chosen its answer and is not reported. Only judged when clusters are loaded; in an admin dump that " +
		"is provably trimmed (it holds EDS assignments of clusters it does not list, which Envoy never dumps; a " +
		"static cluster of its bootstrap is missing from static_clusters, which lists them all; or it has dynamic " +
		"clusters but no static cluster to reach the xDS server by) " +
		"the finding is info.",
	Hint: "Fix the cluster name, or load the file that defines the cluster.",
	Check: func(p *Pass) {
		if len(p.Cfg.Clusters) == 0 {
			return
		}
		for _, rt := range p.Routes() {
			if p.Cfg.Cluster(rt.Cluster) == nil {
				// A non-default cluster_not_found_response_code (404, 500)
				// makes the missing cluster's answer the route's own decision
				// (Router::decodeHeaders), e.g. Gateway API's invalid backend.
				if rt.Action.GetClusterNotFoundResponseCode() != 0 {
					continue
				}
				if !p.strict && p.partialDump(rt.Pos.File) {
					p.ReportSev(SevInfo, rt.Pos, "route targets cluster %q, which this dump does not list (the dump is an excerpt of what Envoy wrote, so the cluster may exist)", rt.Cluster)
					continue
				}
				p.Report(rt.Pos, "route targets cluster %q, which is not defined", rt.Cluster)
			}
		}
	},
})
