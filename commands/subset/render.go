package subset

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/subset"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/lbctl/lbctl/lbmodel"
)

// renderSubset writes the subsets as a table, then each evaluation's
// decision path and result.
func renderSubset(t *term.IO, r *subset.SubsetReport) {
	title := t.Paint(term.Title).Bold(true).Render(r.Cluster)
	meta := []string{"subsets of " + r.LbPolicy, "fallback " + r.FallbackPolicy}
	if r.DefaultSubset != nil {
		meta = append(meta, "default subset "+criteriaText(r.DefaultSubset.Values))
	}
	fmt.Fprint(t.Out, cmdutil.Headline(t, title, meta)+"\n\n")

	rows := make([][]string, 0, len(r.Subsets)+1)
	for _, s := range r.Subsets {
		kind := "selector " + strconv.Itoa(s.Selector)
		if s.SingleHost {
			kind += " (single host)"
		}
		rows = append(rows, []string{criteriaText(s.Values), strconv.Itoa(len(s.Hosts)), strings.Join(s.Hosts, ", "), kind})
	}
	if r.DefaultSubset != nil {
		rows = append(rows, []string{"default " + criteriaText(r.DefaultSubset.Values), strconv.Itoa(len(r.DefaultSubset.Hosts)),
			strings.Join(r.DefaultSubset.Hosts, ", "), "fallback"})
	}
	if len(rows) == 0 {
		fmt.Fprintln(t.Out, "no host carries every key of any selector: there are no subsets")
	} else {
		fmt.Fprintln(t.Out, encode.Table(t, []string{"SUBSET", "HOSTS", "MEMBERS", "FROM"}, rows, 1))
	}

	if len(r.Routes) == 0 {
		fmt.Fprintln(t.Out)
		renderDecision(t, "match "+criteriaText(r.Match), r.Result)
		return
	}
	for _, rr := range r.Routes {
		fmt.Fprintln(t.Out)
		head := "route " + rr.Route
		if rr.WeightedCluster != nil {
			head += t.Sep() + fmt.Sprintf("weighted cluster %d (weight %d, %s of the route's requests)", *rr.WeightedCluster, rr.Weight, cmdutil.FPct(rr.TrafficShare))
		}
		fmt.Fprintln(t.Out, t.Style().Bold(true).Render(head))
		fmt.Fprintf(t.Out, "  route criteria %s, weighted cluster criteria %s\n", criteriaText(rr.RouteMatch), criteriaText(rr.ClusterMatch))
		renderDecision(t, "match "+criteriaText(rr.Match), rr.Result)
	}
}

// renderDecision prints the decision path and where the request goes.
func renderDecision(t *term.IO, head string, res subset.SubsetResult) {
	fmt.Fprintln(t.Out, t.Style().Bold(true).Render(head))
	for _, s := range res.Steps {
		fmt.Fprintln(t.Out, "  "+s)
	}
	verdict := res.Source
	if res.FallbackPolicy != "" {
		verdict += " (" + res.FallbackPolicy + ")"
	}
	hosts := strings.Join(res.Hosts, ", ")
	if len(res.Hosts) == 0 {
		hosts = t.Paint(term.Alarm).Bold(true).Render("no host: the request fails")
	}
	fmt.Fprintf(t.Out, "  → %s: %s\n", verdict, hosts)
	if res.NoHealthyHosts && len(res.Hosts) > 0 {
		msg := "  ! the pool has no healthy host: its load balancer serves it in panic"
		if res.Source == "subset" {
			msg += "; a matched subset never falls back"
		}
		fmt.Fprintln(t.Out, t.Paint(term.Alarm).Render(msg))
	}
	fmt.Fprintln(t.Out, "  "+res.Reason)
	cmdutil.Notes(t, res.Notes, cmdutil.NoteInline)
}

// criteriaText renders criteria sorted by name, as Envoy orders them;
// "(none)" for nil.
func criteriaText(m map[string]any) string {
	if m == nil {
		return "(none)"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + lbmodel.FormatValue(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
