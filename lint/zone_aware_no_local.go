package lint

import "github.com/lbctl/lbctl/analyze/model"

// LB1509 zone-aware-no-local (PRI-ZONE-AWARE-NO-LOCAL).
var _ = register(&Rule{
	ID: "LB1509", Name: "zone-aware-no-local", Spec: "PRI-ZONE-AWARE-NO-LOCAL",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "common_lb_config.zone_aware_lb_config on a cluster while no loaded bootstrap names a local " +
		"cluster (cluster_manager.local_cluster_name). Zone-aware routing compares the upstream's localities " +
		"with the local cluster's (ZoneAwareLoadBalancerBase needs local_priority_set_); without one the " +
		"settings are inert. gRPC ignores zone-aware routing altogether. Judged only when a bootstrap is loaded. Info: traffic is what it would be without the block.",
	Hint: "Set cluster_manager.local_cluster_name in the bootstrap, or drop zone_aware_lb_config.",
	Check: func(p *Pass) {
		if len(p.Cfg.Bootstraps) == 0 || model.LocalClusterName(p.Cfg, model.Options{}) != "" {
			return
		}
		for _, cl := range p.Cfg.Clusters {
			if cl.Proto.GetCommonLbConfig().GetZoneAwareLbConfig() != nil {
				p.Report(p.pos(cl.Proto.GetCommonLbConfig(), "zone_aware_lb_config"), "cluster %q: zone_aware_lb_config has no effect: the bootstrap names no local cluster", cl.Name())
			}
		}
	},
})
