package diff

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/lbctl/lbctl/analyze/diff"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lint"
)

// diffHostRows is how many hosts text and Markdown list per cluster
// (all with --verbose).
const diffHostRows = 10

// sharePct writes a fraction as a percentage with at most two decimals.
func sharePct(v float64) string {
	s := strconv.FormatFloat(100*v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

// loadPct is a priority or child load in percent, "-" where absent.
func loadPct(v *int) string {
	if v == nil {
		return "-"
	}
	return strconv.Itoa(*v) + "%"
}

func optPct(v *float64) string {
	if v == nil {
		return "-"
	}
	return sharePct(*v)
}

func opt[T any](v *T) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}

func arrow[T any](c *diff.Change[T]) string { return opt(c.Old) + " → " + opt(c.New) }

// pp is a change of share in percentage points, signed.
func pp(c *diff.Change[float64]) string {
	d := 0.0
	if c.New != nil {
		d += *c.New
	}
	if c.Old != nil {
		d -= *c.Old
	}
	s := strings.TrimSuffix(sharePct(d), "%")
	if d > 0 {
		s = "+" + s
	}
	return s + " pp"
}

// diffLines are one cluster's facts as (label, value) lines, most
// important first; hosts lists at most diffHostRows unless all.
func diffLines(c diff.Cluster, all bool) [][2]string {
	var out [][2]string
	add := func(k, v string) { out = append(out, [2]string{k, v}) }
	if c.RenamedFrom != "" {
		add("renamed", "looks renamed from "+c.RenamedFrom+" (same endpoints)")
	}
	if c.RenamedTo != "" {
		add("renamed", "looks renamed to "+c.RenamedTo+" (same endpoints)")
	}
	if c.LbPolicy != nil {
		add("lb_policy", arrow(c.LbPolicy))
	}
	if c.OverprovisioningFactor != nil {
		add("overprovisioning", arrow(c.OverprovisioningFactor))
	}
	if c.PanicThreshold != nil {
		add("panic threshold", arrow(c.PanicThreshold)+"%")
	}
	if c.TotalPanic != nil {
		add("total panic", arrow(c.TotalPanic))
	}
	if c.NoHostShare != nil {
		add("no host", optPct(c.NoHostShare.Old)+" → "+optPct(c.NoHostShare.New)+" of requests")
	}
	var loads, panics []string
	for _, p := range c.Priorities {
		l := fmt.Sprintf("P%d %s → %s", p.Priority, loadPct(p.HealthyLoad.Old), loadPct(p.HealthyLoad.New))
		if v := p.DegradedLoad; v.Old != nil && *v.Old != 0 || v.New != nil && *v.New != 0 {
			l += fmt.Sprintf(" (degraded %s → %s)", loadPct(v.Old), loadPct(v.New))
		}
		loads = append(loads, l)
		if v := p.Panic; v.Old != nil && v.New != nil && *v.Old != *v.New || v.Old != nil && v.New == nil && *v.Old || v.New != nil && v.Old == nil && *v.New {
			panics = append(panics, fmt.Sprintf("P%d %s", p.Priority, arrow(p.Panic)))
		}
	}
	if len(loads) > 0 {
		add("priorities", strings.Join(loads, ", "))
	}
	if len(panics) > 0 {
		add("panic", strings.Join(panics, ", "))
	}
	if c.Aggregate != nil {
		var v []string
		for _, l := range c.Aggregate.ClusterLoad {
			v = append(v, fmt.Sprintf("%s %s → %s", l.Cluster, loadPct(l.Load.Old), loadPct(l.Load.New)))
		}
		add("aggregate", strings.Join(v, ", "))
	}
	if len(c.Localities) > 0 {
		var v []string
		for _, l := range c.Localities {
			name := strings.TrimRight(l.Region+"/"+l.Zone+"/"+l.SubZone, "/")
			v = append(v, fmt.Sprintf("P%d %s %s → %s", l.Priority, name, optPct(l.Share.Old), optPct(l.Share.New)))
		}
		add("localities", strings.Join(v, ", "))
	}
	if z := c.ZoneRouting; z != nil {
		add("zone routing", fmt.Sprintf("%s (local %s → %s of 10000)", arrow(z.State), opt(z.LocalPercent.Old), opt(z.LocalPercent.New)))
	}
	if len(c.Hosts) > 0 {
		var added, removed, modified int
		for _, h := range c.Hosts {
			switch h.Change {
			case "added":
				added++
			case "removed":
				removed++
			default:
				modified++
			}
		}
		add("hosts", fmt.Sprintf("%d added, %d removed, %d changed; largest move %s pp; %d doubled, %d halved",
			added, removed, modified, strings.TrimSuffix(sharePct(c.MaxShift), "%"), c.Doubled, c.Halved))
		for i, h := range c.Hosts {
			if i == diffHostRows && !all {
				add("", fmt.Sprintf("  … %d more (--verbose lists every host)", len(c.Hosts)-i))
				break
			}
			name := h.Address
			if h.Cluster != "" {
				name = h.Cluster + "/" + name
			}
			v := fmt.Sprintf("  %-6s %s  %s → %s (%s)", hostMark(h.Change), name, optPct(h.Share.Old), optPct(h.Share.New), pp(h.Share))
			if h.Unknown {
				v = fmt.Sprintf("  %-6s %s  %s → %s (share not computable on one side)", hostMark(h.Change), name, optPct(h.Share.Old), optPct(h.Share.New))
			}
			if h.Health != nil {
				v += "; health " + arrow(h.Health)
			}
			if h.Weight != nil {
				v += "; weight " + arrow(h.Weight)
			}
			add("", v)
		}
	}
	if c.Hash != nil {
		add("key space", sharePct(c.Hash.Moved)+" of hash keys map to another host")
		for i, h := range c.Hash.Hosts {
			if i == diffHostRows && !all {
				add("", fmt.Sprintf("  … %d more", len(c.Hash.Hosts)-i))
				break
			}
			add("", fmt.Sprintf("  %s gains %s, loses %s", h.Address, sharePct(h.Gained), sharePct(h.Lost)))
		}
	}
	if h := c.HashPolicy; h != nil {
		add("route hash_policy", joinOr(*h.Old)+" → "+joinOr(*h.New))
	}
	if s := c.Subset; s != nil {
		if s.FallbackPolicy != nil {
			add("subset fallback", arrow(s.FallbackPolicy))
		}
		if s.Selectors != nil {
			add("subset selectors", strings.Join(*s.Selectors.Old, "; ")+" → "+strings.Join(*s.Selectors.New, "; "))
		}
		if s.DefaultSubset != nil {
			add("default subset", arrow(s.DefaultSubset))
		}
	}
	for _, n := range c.Notes {
		add("note", n)
	}
	return out
}

func joinOr(vs []string) string {
	if len(vs) == 0 {
		return "(none)"
	}
	return strings.Join(vs, "; ")
}

func hostMark(change string) string {
	switch change {
	case "added":
		return "+ new"
	case "removed":
		return "- gone"
	}
	return "~"
}

func diffHeadline(r *diff.Report) string {
	if !r.Changed {
		return "no cluster's traffic changes"
	}
	s := fmt.Sprintf("%d cluster%s change%s traffic; max host shift %s pp", r.Summary.ClustersChanged, pluralS(r.Summary.ClustersChanged),
		map[bool]string{true: "", false: "s"}[r.Summary.ClustersChanged != 1], strings.TrimSuffix(sharePct(r.Summary.MaxShift), "%"))
	if r.Summary.MaxMoved > 0 {
		s += "; up to " + sharePct(r.Summary.MaxMoved) + " of a hash key space remapped"
	}
	return s
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func findingsLine(r *diff.Report) string {
	return fmt.Sprintf("lint: %d new finding%s, %d fixed", len(r.Findings.New), pluralS(len(r.Findings.New)), len(r.Findings.Fixed))
}

// renderDiff is the text output.
func renderDiff(t *term.IO, r *diff.Report, all bool) {
	var b strings.Builder
	writeDiffText(t, &b, r, all)
	if r.GRPC != nil {
		b.WriteString("\ngRPC semantics: ")
		writeDiffText(t, &b, r.GRPC, all)
	}
	writeFindingsText(t, &b, r)
	io.WriteString(t.Out, b.String())
}

func writeDiffText(t *term.IO, b *strings.Builder, r *diff.Report, all bool) {
	bold := t.Style().Bold(true)
	mark := map[string]lipgloss.Style{"added": t.Paint(term.Good), "removed": t.Paint(term.Alarm),
		"modified": t.Paint(term.Title)}
	sign := map[string]string{"added": "+", "removed": "-", "modified": "~"}
	fmt.Fprintf(b, "%s\n", bold.Render(diffHeadline(r)))
	if so := r.Summary.SettingsOnly; len(so) > 0 {
		fmt.Fprintf(b, "settings changed, traffic did not: %s\n", strings.Join(so, ", "))
	}
	for _, c := range r.Clusters {
		where := ""
		if c.File != nil {
			if c.File.New != nil {
				where = *c.File.New
			} else if c.File.Old != nil {
				where = *c.File.Old
			}
		}
		fmt.Fprintf(b, "\n%s %s (%s, %s)\n", mark[c.Change].Render(sign[c.Change]), bold.Render(c.Name), c.Change, where)
		for _, l := range diffLines(c, all) {
			fmt.Fprintf(b, "    %-17s %s\n", l[0], l[1])
		}
	}
}

func writeFindingsText(t *term.IO, b *strings.Builder, r *diff.Report) {
	fmt.Fprintf(b, "\n%s\n", findingsLine(r))
	for _, f := range r.Findings.New {
		sev, _ := lint.ParseSeverity(f.Severity)
		fmt.Fprintf(b, "  + %s:%d:%d: %s %s %s [%s]\n", f.File, f.Line, f.Column, cmdutil.SeverityStyle(t, sev).Render(f.Severity), f.Rule, f.Message, f.Name)
	}
	for _, f := range r.Findings.Fixed {
		fmt.Fprintf(b, "  - fixed %s:%d:%d: %s %s %s [%s]\n", f.File, f.Line, f.Column, f.Severity, f.Rule, f.Message, f.Name)
	}
}
