package lint

import "github.com/lbctl/lbctl/analyze/model"

// LB1016 lb-policy-rejected: the LB configuration combinations Envoy
// rejects at load (model.Settings records them).
var _ = register(&Rule{
	ID: "LB1016", Name: "lb-policy-rejected", Spec: "ENV-LB-POLICY-REJECTED",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "A load-balancing configuration Envoy rejects when it loads the cluster: " +
		"ClusterInfoImpl::configureLbPolicies (upstream_impl.cc) refuses load_balancing_policy together with " +
		"lb_subset_config or with common_lb_config's zone_aware_lb_config, locality_weighted_lb_config or " +
		"consistent_hashing_lb_config, and a policy list with no entry it has a factory for; WrrLocality's " +
		"Factory::loadConfig (wrr_locality/config.h) accepts only client_side_weighted_round_robin as the " +
		"endpoint-picking child. gRPC accepts other wrr_locality children, so this is an Envoy-only error.",
	Hint: "Put locality settings in the typed policy (locality_lb_config / locality_weighted_lb_config), use a Subset policy instead of lb_subset_config, or give wrr_locality a client_side_weighted_round_robin child.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			s := model.Settings(p.Cfg, cl)
			// The other rejections have their own rules (LB1111, LB1112,
			// LB1014).
			if s.Rejected == "" || !(s.RejectedWhy == "subset" || s.RejectedWhy == "common" || s.RejectedWhy == "wrr_child") {
				continue
			}
			p.Report(s.Pos.Rejected, "cluster %q: Envoy rejects this cluster: %s", cl.Name(), s.Rejected)
		}
	},
})
