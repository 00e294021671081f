package encode

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// EscapeTrafficStrings is EscapeStrings for a traffic report without
// reflection (a mesh dump's report has 10^5 strings);
// untrusted_traffic_test.go checks it escapes what EscapeStrings does.
func EscapeTrafficStrings(r *traffic.Report) {
	esc := func(s *string) { *s = config.Escape(*s) }
	loc := func(region, zone, subZone *string) { esc(region); esc(zone); esc(subZone) }
	esc(&r.Semantics)
	for i := range r.Clusters {
		c := &r.Clusters[i]
		esc(&c.Name)
		esc(&c.LbPolicy)
		esc(&c.File)
		esc(&c.PerRequestHosts)
		for j := range c.Notes {
			esc(&c.Notes[j])
		}
		for j := range c.Priorities {
			for k := range c.Priorities[j].Localities {
				l := &c.Priorities[j].Localities[k]
				loc(&l.Region, &l.Zone, &l.SubZone)
			}
		}
		for j := range c.Hosts {
			h := &c.Hosts[j]
			esc(&h.Cluster)
			esc(&h.Address)
			esc(&h.Hostname)
			loc(&h.Region, &h.Zone, &h.SubZone)
			esc(&h.Health)
		}
		if a := c.Aggregate; a != nil {
			for j := range a.Clusters {
				esc(&a.Clusters[j])
			}
			for j := range a.Levels {
				esc(&a.Levels[j].Cluster)
			}
			for j := range a.ClusterLoad {
				esc(&a.ClusterLoad[j].Cluster)
			}
		}
		if z := c.ZoneRouting; z != nil {
			esc(&z.State)
			esc(&z.Reason)
			for j := range z.Localities {
				l := &z.Localities[j]
				loc(&l.Region, &l.Zone, &l.SubZone)
			}
		}
	}
}
