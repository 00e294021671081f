package lint

// LB1802 weighted-clusters-zero-total (RT-WEIGHTED-ZERO-TOTAL).
var _ = register(&Rule{
	ID: "LB1802", Name: "weighted-clusters-zero-total", Spec: "RT-WEIGHTED-ZERO-TOTAL",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc: "weighted_clusters whose weights sum to 0 or to more than 4294967295. Envoy's route config rejects " +
		"it (\"Sum of weights in the weighted_cluster must be greater than 0.\", and the uint32 overflow " +
		"check); grpc-go NACKs it.",
	Hint: "Give at least one entry a positive weight, and keep the sum within uint32.",
	Check: func(p *Pass) {
		for _, rc := range p.Cfg.Routes {
			for _, vh := range rc.GetVirtualHosts() {
				for _, r := range vh.GetRoutes() {
					wc := r.GetRoute().GetWeightedClusters()
					if wc == nil {
						continue
					}
					var sum uint64
					for _, c := range wc.GetClusters() {
						sum += uint64(c.GetWeight().GetValue())
					}
					if sum == 0 {
						p.Report(p.pos(wc, "clusters"), "weighted_clusters weights sum to 0")
					} else if sum > 4294967295 {
						p.Report(p.pos(wc, "clusters"), "weighted_clusters weights sum to %d, more than 4294967295", sum)
					}
				}
			}
		}
	},
})
