package lint

import (
	"fmt"

	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/placement"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// LB1602 locality-weight-missing (WGT-LOCALITY-WEIGHT-MISSING-ENVOY).
var _ = register(&Rule{
	ID: "LB1602", Name: "locality-weight-missing", Spec: "WGT-LOCALITY-WEIGHT-MISSING-ENVOY",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "Locality-weighted load balancing with a locality that has no load_balancing_weight. " +
		"endpoint_components.proto: \"If no weights are specified when locality weighted load balancing is " +
		"enabled, the locality is assigned no load.\" With RING_HASH and MAGLEV its endpoints get no ring entry in " +
		"any health state (normalizeLocalityWeights skips a weight of 0, in panic too); with ROUND_ROBIN, " +
		"LEAST_REQUEST and RANDOM they get no traffic while a weighted locality of the priority has a healthy " +
		"host, and are used only when none has (no locality scheduler) or the priority panics (hostSourceToUse " +
		"returns all hosts). When no locality of the priority has a weight, the policy decides: ROUND_ROBIN, LEAST_REQUEST and RANDOM build " +
		"no locality scheduler and use all the priority's hosts (LocalityWrr::rebuildLocalityScheduler; no finding), " +
		"but RING_HASH and MAGLEV build an empty ring or table (normalizeLocalityWeights in thread_aware_lb_impl.cc " +
		"returns when the weights sum to 0), so requests that reach that priority find no host. explain gives the " +
		"same cause (hash.LevelEmptyCause).",
	Hint: "Give every locality a load_balancing_weight.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			if !p.localityWeighted(cl) {
				return
			}
			m := p.Model(cl)
			hashing := model.IsHashPolicy(m.Policy)
			emptyReported := map[uint32]bool{}
			for _, loc := range a.GetEndpoints() {
				if loc.GetLoadBalancingWeight() != nil || len(loc.GetLbEndpoints()) == 0 {
					continue
				}
				prio := loc.GetPriority()
				if hashing {
					// Health aside (Panic: every host used): only the weights.
					in := model.PriorityHosts(m.Hosts, int(prio))
					if c := hash.LevelEmptyCause(in, hash.NormalizeOptions{LocalityWeighted: true, Panic: true}); c == hash.EmptyLocalityWeights {
						if !emptyReported[prio] {
							emptyReported[prio] = true
							p.Report(p.pos(loc, "locality"), "cluster %q: P%d's %s is empty (%s): requests that reach P%d find no host",
								cl.Name(), prio, placement.StructureName(m.Policy), c, prio)
						}
						continue
					}
				} else {
					// No locality of the priority has an effective weight: Envoy
					// builds no locality scheduler and hostSourceToUse falls back
					// to all the priority's hosts (LocalityWrr::rebuildLocalityScheduler).
					g := lbmodel.GroupLocalities(m.Hosts, int(prio), lbmodel.Locality{}, false)
					if _, sched := lbmodel.LocalityWeights(g, m.OverprovisioningFactor, false); !sched {
						continue
					}
				}
				// When is the consequence: a hash ring never holds these hosts
				// (normalizeLocalityWeights skips weight 0, in panic too); the
				// other policies use them once no weighted locality has a
				// healthy host (no scheduler) or the priority panics (all hosts).
				var when string
				if hashing {
					when = fmt.Sprintf("whatever the health of P%d", prio)
				} else {
					when = fmt.Sprintf("while a weighted locality of P%d has a healthy host (only when none has, or P%d panics, are all its hosts used)", prio, prio)
				}
				p.Report(p.pos(loc, "locality"), "cluster %q: locality %q has no load_balancing_weight, so its %d endpoints get no traffic %s",
					cl.Name(), localityName(loc), len(loc.GetLbEndpoints()), when)
			}
		})
	},
})

func localityName(loc *endpointv3.LocalityLbEndpoints) string {
	l := loc.GetLocality()
	return l.GetRegion() + "/" + l.GetZone() + "/" + l.GetSubZone()
}
