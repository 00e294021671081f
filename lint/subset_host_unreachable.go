package lint

import (
	"fmt"
	"strings"

	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/lbmodel"
)

// LB1311 subset-host-unreachable: lbctl's own rule.
var _ = register(&Rule{
	ID: "LB1311", Name: "subset-host-unreachable",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A healthy endpoint of a subset cluster that no request can reach, whatever its metadata_match and " +
		"whatever the health of its priority. SubsetLoadBalancer::chooseHost (subset_lb.cc) picks only from an " +
		"active subset (a host joins one only when it carries every key of a selector under envoy.lb; a " +
		"single_host_per_subset subset returns its first host only), from the any-endpoint subset (fallback_policy " +
		"ANY_ENDPOINT, a selector's ANY_ENDPOINT, panic_mode_any behind a fallback) or from the default subset " +
		"(DEFAULT_SUBSET: hosts matching default_subset). Subsets are built from all hosts whatever their " +
		"health, so no failure elsewhere moves traffic to such a host: it is counted in its priority's health " +
		"(and so in panic and spill-over) but never receives a request. lbmodel/subset.UnreachedWhy computes it; " +
		"`lbctl subset` shows the subsets.",
	Hint: "Give the endpoint the selector keys under filter_metadata envoy.lb, or use fallback_policy ANY_ENDPOINT (or a default_subset that matches it).",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			if cl.Assignment == nil {
				continue
			}
			s, probs := model.Subset(p.Cfg, cl)
			m := p.Model(cl)
			if s == nil || !s.Config.Enabled() || len(probs.Errors()) > 0 || m.IsAggregate {
				continue
			}
			lb := s.LB // built over the memoized hosts, as m's
			if lb == nil {
				continue
			}
			why := model.UnreachedHealthy(cl, m, lb)
			if len(why.Hosts) == 0 {
				continue
			}
			lost := make([]lbmodel.Host, len(why.Hosts))
			for i, u := range why.Hosts {
				lost[i] = m.Hosts[u.Host]
			}
			ep := endpointOf(cl.Assignment, lost[0])
			pos := s.Pos
			if ep != nil {
				pos = p.pos(ep, "endpoint")
			}
			p.Report(pos, "cluster %q: %s, so %s no traffic whatever the health of %s",
				cl.Name(), config.Escape(why.Describe(func(idx []int) string { return hostList(m.Hosts, idx) })), itThey(len(lost)), priorities(lost))
		}
	},
})

// endpointOf is the LbEndpoint model host h came from (same priority and
// address), for its position.
func endpointOf(a *endpointv3.ClusterLoadAssignment, h lbmodel.Host) *endpointv3.LbEndpoint {
	for _, loc := range a.GetEndpoints() {
		if int(loc.GetPriority()) != h.Priority {
			continue
		}
		for _, ep := range loc.GetLbEndpoints() {
			if config.FormatAddress(ep.GetEndpoint().GetAddress()) == h.Address {
				return ep
			}
		}
	}
	return nil
}

// hostList names the hosts at idx: all of them up to three, then a count.
func hostList(hosts []lbmodel.Host, idx []int) string {
	names := make([]string, 0, 3)
	for _, i := range idx[:min(3, len(idx))] {
		names = append(names, config.Safe(hosts[i].Address))
	}
	more := ""
	if len(idx) > 3 {
		more = fmt.Sprintf(" and %d more", len(idx)-3)
	}
	return strings.Join(names, ", ") + more
}

// priorities names the priorities the hosts are in.
func priorities(hosts []lbmodel.Host) string {
	seen := map[int]bool{}
	var out []string
	for _, h := range hosts {
		if !seen[h.Priority] {
			seen[h.Priority] = true
			out = append(out, fmt.Sprintf("P%d", h.Priority))
		}
	}
	return strings.Join(out, ", ")
}

func itThey(n int) string {
	if n == 1 {
		return "it gets"
	}
	return "they get"
}
