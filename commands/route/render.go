package route

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
)

// maxHosts is how many hosts the text shows; -o json lists them all.
const maxHosts = 20

// renderRoute writes the decision path one step a line, then the hosts
// that receive the request and the notes.
func renderRoute(t *term.IO, r *route.Report) {
	q := r.Request
	title := t.Style().Bold(true).Render(q.Method + " " + q.Authority + q.Path)
	var facts []string
	for _, k := range cmdutil.SortedKeys(q.Headers) {
		facts = append(facts, k+": "+q.Headers[k])
	}
	fmt.Fprint(t.Out, cmdutil.Headline(t, title, facts)+"\n\n")

	for _, s := range r.Steps() {
		shown := stepLine(t, r, s)
		if shown == "" {
			continue
		}
		for _, line := range strings.Split(shown, "\n") {
			fmt.Fprintln(t.Out, cmdutil.Wrap(line, t.Width, "    "))
		}
	}
	if len(r.Clusters) > 1 || r.Action == route.ActionWeighted {
		rows := make([][]string, 0, len(r.Clusters))
		for _, c := range r.Clusters {
			rows = append(rows, []string{c.Name, strconv.FormatUint(uint64(c.Weight), 10), cmdutil.FPct(c.Share)})
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, []string{"CLUSTER", "WEIGHT", "SHARE"}, rows, 1, 2))
	}
	renderHosts(t, r.Hosts)
	cmdutil.Notes(t, r.Notes, cmdutil.NoteList)
}

// stepLine is one step of the decision path as the text shows it: the
// action in words and coloured by its outcome; the per-cluster and
// per-host steps are left to the tables ("" drops the step).
func stepLine(t *term.IO, r *route.Report, s string) string {
	arrow := "-> "
	if t.Unicode() {
		arrow = "→ "
	}
	switch {
	case strings.HasPrefix(s, "cluster ") && strings.Contains(s, ", share "),
		strings.HasPrefix(s, "host ") && strings.Contains(s, ", share "):
		return ""
	case strings.HasPrefix(s, "action "):
		line := arrow + actionLine(t, r)
		if h := r.Hash; h != nil {
			line += "\n" + arrow + fmt.Sprintf("cluster %s hashes the request (%s) to %s: host %s", h.Cluster, h.Policy, h.Hash, t.Paint(term.Good).Render(h.Host))
		}
		return line
	case strings.Contains(s, "Envoy answers 404"):
		return arrow + t.Paint(term.Alarm).Render(s)
	}
	return arrow + s
}

// actionLine says what the router does with the request.
func actionLine(t *term.IO, r *route.Report) string {
	good := t.Paint(term.Good)
	switch r.Action {
	case route.ActionCluster, route.ActionClusterHeader, route.ActionPlugin:
		if r.Cluster != "" {
			line := "forwards to cluster " + good.Render(r.Cluster)
			if r.Action != route.ActionCluster {
				line += " (" + strings.ReplaceAll(r.Action, "_", " ") + ")"
			}
			return line + subsetText(r)
		}
		return t.Paint(term.Alarm).Render(strings.ReplaceAll(r.Action, "_", " ") + ": no cluster chosen")
	case route.ActionWeighted:
		if r.Cluster != "" {
			return "weighted clusters: --random-value picks " + good.Render(r.Cluster) + subsetText(r)
		}
		return fmt.Sprintf("splits over %d weighted clusters", len(r.Clusters))
	}
	return strings.ReplaceAll(r.Action, "_", " ")
}

func subsetText(r *route.Report) string {
	if len(r.MetadataMatch) == 0 {
		return ""
	}
	var kv []string
	for _, k := range cmdutil.SortedKeys(r.MetadataMatch) {
		kv = append(kv, fmt.Sprintf("%s=%v", k, r.MetadataMatch[k]))
	}
	return ", subset " + strings.Join(kv, ",")
}

// renderHosts writes the hosts receiving the request, by share.
func renderHosts(t *term.IO, hosts []route.HostShare) {
	if len(hosts) == 0 {
		return
	}
	sorted := append([]route.HostShare(nil), hosts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Share > sorted[j].Share })
	shown := sorted
	if len(shown) > maxHosts {
		shown = shown[:maxHosts]
	}
	rows := make([][]string, 0, len(shown))
	for _, h := range shown {
		rows = append(rows, []string{h.Address, h.Cluster, cmdutil.FPct(h.Share), t.Bar(h.Share, 20)})
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"HOST", "CLUSTER", "SHARE", ""}, rows, 2))
	if n := len(sorted) - len(shown); n > 0 {
		fmt.Fprintf(t.Out, "%s %d more hosts (-o json lists them all)\n", t.Ellipsis(), n)
	}
}
