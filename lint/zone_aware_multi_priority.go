package lint

import (
	"github.com/lbctl/lbctl/analyze/config"
)

// LB1510 zone-aware-multi-priority (PRI-ZONE-AWARE-MULTI).
var _ = register(&Rule{
	ID: "LB1510", Name: "zone-aware-multi-priority", Spec: "PRI-ZONE-AWARE-MULTI",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo},
	Doc: "A cluster with common_lb_config.zone_aware_lb_config and endpoints at more than one priority. " +
		"Zone-aware routing only shapes priority 0: ZoneAwareLoadBalancerBase::regenerateLocalityRoutingStructures " +
		"runs for P0 only and other priorities pick among all their hosts (docs: \"when using multiple " +
		"priorities, zone aware routing is currently only supported for P=0\").",
	Hint: "Expect no zone affinity for traffic that spills to priority 1 and below.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			za := cl.Proto.GetCommonLbConfig().GetZoneAwareLbConfig()
			if za == nil || cl.Assignment == nil {
				continue
			}
			if top := maxPriority(cl); top > 0 {
				p.Report(p.pos(cl.Proto.GetCommonLbConfig(), "zone_aware_lb_config"), "cluster %q: zone-aware routing applies to priority 0 only, not to priorities 1..%d", cl.Name(), top)
			}
		}
	},
})

// maxPriority is the highest endpoint priority of cl's assignment.
func maxPriority(cl *config.Cluster) uint32 {
	var top uint32
	for _, loc := range cl.Assignment.GetEndpoints() {
		top = max(top, loc.GetPriority())
	}
	return top
}
