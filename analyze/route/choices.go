package route

import (
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
)

// Choices are the names a request's flags may take in cfg, for shell
// completion: route configurations, listeners with an HTTP connection
// manager, virtual hosts and their domains (wildcards left out).
type Choices struct {
	RouteConfigs, Listeners, VirtualHosts, Domains []string
}

// ChoicesOf lists cfg's Choices, each sorted and without duplicates.
func ChoicesOf(cfg *config.Config) Choices {
	var c Choices
	all := sources(cfg)
	c.RouteConfigs = names(all, func(s source) string { return s.rc.GetName() })
	c.Listeners = names(all, func(s source) string { return s.listener })
	vhs, domains := map[string]bool{}, map[string]bool{}
	for _, s := range all {
		for _, vh := range s.rc.GetVirtualHosts() {
			vhs[vh.GetName()] = true
			for _, d := range vh.GetDomains() {
				if d != "*" && d != "" && d[0] != '*' && d[len(d)-1] != '*' {
					domains[d] = true
				}
			}
		}
	}
	c.VirtualHosts, c.Domains = sortedSet(vhs), sortedSet(domains)
	return c
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
