package lint

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"

	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
)

// LB1503 priority-dup-locality (PRI-DUP-LOCALITY).
var _ = register(&Rule{
	ID: "LB1503", Name: "priority-dup-locality", Spec: "PRI-DUP-LOCALITY",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevError},
	Doc: "The same locality (region, zone, sub_zone) listed twice within one priority. gRPC NACKs the " +
		"assignment (grpc-go parseEDSRespProto \"duplicate locality\", C-core likewise; A27). Envoy accepts it " +
		"and merges the hosts into one locality whose weight comes from one of the entries [inferred], so the " +
		"written weights do not add up as the author may expect.",
	Hint: "Merge the two entries into one locality.",
	Check: func(p *Pass) {
		p.assignments(func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment) {
			seen := map[string]bool{}
			for _, loc := range a.GetEndpoints() {
				l := loc.GetLocality()
				key := fmt.Sprintf("%d/%q/%q/%q", loc.GetPriority(), l.GetRegion(), l.GetZone(), l.GetSubZone())
				if seen[key] {
					pos := p.pos(loc, "locality")
					if loc.GetLocality() == nil {
						pos = p.pos(loc, "lb_endpoints")
					}
					p.Report(pos, "cluster %q: locality {region: %q, zone: %q, sub_zone: %q} appears twice at priority %d", cl.Name(), l.GetRegion(), l.GetZone(), l.GetSubZone(), loc.GetPriority())
				}
				seen[key] = true
			}
		})
	},
})
