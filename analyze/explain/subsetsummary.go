package explain

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/subset"
)

// maxSummarySubsets bounds how many subsets explain lists by name.
const maxSummarySubsets = 8

// maxSummaryRoutes bounds how many route targets explain evaluates.
const maxSummaryRoutes = 20

// subsetNotes summarise, for explain, a cluster's subset load balancing:
// its subsets, its fallback, the routes that reach it and where their
// criteria lead, and the configuration's problems. Nil for a cluster
// without subsets.
func subsetNotes(r *model.Result) []string {
	s, probs, cl := r.Subset, r.SubsetProblems, r.Cluster
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, p := range probs {
		add("subset config, %s: %s (%s)", p.Severity, p.Msg, p.Pos)
	}
	if s == nil || len(probs.Errors()) > 0 {
		return out
	}
	src := "lb_subset_config"
	if s.Typed {
		src = "the subset load_balancing_policy"
	}
	if !s.Config.Enabled() {
		add("%s has no subset_selectors, so subset load balancing is off and host metadata is ignored", src)
		return out
	}
	lb := s.LB // built over r.SubsetModel's hosts
	subsets := lb.Subsets()
	names := make([]string, 0, len(subsets))
	for i, e := range subsets {
		if i == maxSummarySubsets {
			names = append(names, fmt.Sprintf("… and %d more", len(subsets)-i))
			break
		}
		names = append(names, fmt.Sprintf("%s (%d)", lbmodel.NewMatchCriteria(e.Values()).String(), len(e.Hosts)))
	}
	if len(names) == 0 {
		names = append(names, "none: no host carries every key of a selector")
	}
	add("subset load balancing (%s, %s inside each subset): %d subset(s) with host counts: %s",
		src, s.ChildPolicy, len(subsets), strings.Join(names, ", "))
	fb := "fallback " + s.Config.FallbackPolicy.String()
	switch s.Config.FallbackPolicy {
	case subset.FallbackDefault:
		def, _ := lb.DefaultSubset()
		fb += fmt.Sprintf(" %s (%d host(s))", lbmodel.NewMatchCriteria(s.Config.DefaultSubset).String(), len(def))
	case subset.FallbackNoFallback:
		fb += ": requests whose criteria match no subset fail"
	}
	add("requests without matching criteria use the %s; the host shares above are over all hosts, and each request's subset narrows them (see lbctl subset %s %s)", fb, option.Cluster, cl.Name())
	if why, n := model.UnreachedNote(cl, r.SubsetModel, lb); why != "" {
		share := "its share above is never sent"
		if n > 1 {
			share = "their shares above are never sent"
		}
		add("%s: %s (LB1311)", why, share)
	}
	routes := r.Routes
	for i, t := range routes {
		if i == maxSummaryRoutes {
			add("… and %d more route target(s): see lbctl subset %s NAME", len(routes)-i, option.Route)
			break
		}
		d := lb.Select(t.Criteria(nil), s.Child)
		where := strings.Join(model.HostNames(d.Hosts), ", ")
		if d.Yield == subset.YieldNone {
			where = "no host"
		}
		label := "route " + t.Route
		if t.Route == "" {
			label = "a route in virtual host " + t.VirtualHost
		}
		if t.WeightedCluster >= 0 {
			label += fmt.Sprintf(" (weighted cluster %d, %.4g%% of its requests)", t.WeightedCluster, t.Share*100)
		}
		add("%s carries %s → %s: %s", label, t.Criteria(nil).String(), d.Source, where)
	}
	return out
}
