package explain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lint"

	"github.com/charmbracelet/lipgloss"
)

// overviewOver is how many clusters make the text output an overview
// instead of one block per cluster (issue 30).
const overviewOver = 10

// overviewRow is one cluster's line of the overview, every value read from
// explain's report (thin rings from lint's LB1408).
type overviewRow struct {
	name, policy, hosts, load, panic, budget string
	flags                                    []string
}

// overviewOf reads one cluster's row from its report.
func overviewOf(cfg *config.Config, c traffic.ClusterReport) overviewRow {
	r := overviewRow{name: c.Name, policy: c.LbPolicy, panic: "no", budget: "-"}
	healthy, total := 0, 0
	var panics []string
	spill, budgeted := -1, false
	for _, p := range c.Priorities {
		healthy, total = healthy+p.Healthy, total+p.Hosts
		if p.Panic {
			panics = append(panics, "P"+strconv.Itoa(p.Priority))
		}
		budgeted = budgeted || p.Budget != nil
		if p.Budget != nil && p.Budget.BeforeSpill != nil && (spill < 0 || *p.Budget.BeforeSpill < spill) {
			spill = *p.Budget.BeforeSpill
		}
	}
	if a := c.Aggregate; a != nil {
		healthy, total = 0, len(c.Hosts)
		for _, h := range c.Hosts {
			if usable(h.Health) {
				healthy++
			}
		}
		for _, l := range a.Levels {
			if l.Panic {
				panics = append(panics, l.Cluster+"/P"+strconv.Itoa(l.Priority))
			}
			budgeted = budgeted || l.Budget != nil
			if l.Budget != nil && l.Budget.BeforeSpill != nil && (spill < 0 || *l.Budget.BeforeSpill < spill) {
				spill = *l.Budget.BeforeSpill
			}
		}
	}
	r.hosts = fmt.Sprintf("%d/%d", healthy, total)
	r.load = loadText(c)
	if len(panics) > 0 {
		r.panic = strings.Join(panics, ",")
	}
	if c.TotalPanic {
		r.panic = "TOTAL"
	}
	if c.EndpointsMissing {
		r.panic = "-"
	}
	if spill >= 0 {
		r.budget = strconv.Itoa(spill)
	} else if budgeted {
		r.budget = "never" // no lower level to spill to
	}
	switch {
	case c.EndpointsMissing:
		r.flags = append(r.flags, "no-endpoints")
	case c.TotalPanic:
		r.flags = append(r.flags, "total-panic")
	case len(panics) > 0:
		r.flags = append(r.flags, "panic")
	}
	if !c.EndpointsMissing && spilling(c) {
		r.flags = append(r.flags, "spilling")
	}
	idle := 0
	for _, h := range c.Hosts {
		if usable(h.Health) && (h.Share == nil || *h.Share == 0) {
			idle++
		}
	}
	if idle > 0 {
		r.flags = append(r.flags, strconv.Itoa(idle)+" idle")
	}
	if cl := cfg.Cluster(c.Name); cl != nil && c.LbPolicy == "RING_HASH" && lint.ThinRing(cfg, cl) != "" {
		r.flags = append(r.flags, "thin-ring")
	}
	return r
}

// rejectedRow is a cluster Envoy rejects at load: it has no traffic, only
// its policy (the error itself goes to standard error).
func rejectedRow(cfg *config.Config, re *model.RejectedError) overviewRow {
	r := overviewRow{name: re.Cluster, policy: "-", hosts: "-", load: "-", panic: "-", budget: "-", flags: []string{"rejected"}}
	if cl := cfg.Cluster(re.Cluster); cl != nil {
		r.policy = model.Get(cfg, cl).Policy
	}
	return r
}

// usable: a host Envoy sends to when its level is not in panic (UNKNOWN
// counts as healthy, as in Envoy).
func usable(health string) bool {
	return health == "HEALTHY" || health == "UNKNOWN" || health == "DEGRADED"
}

// loadText is P0's load and where the rest goes ("70% (P1 30%)"); an
// aggregate's first level's, the rest by child level.
func loadText(c traffic.ClusterReport) string {
	if c.EndpointsMissing {
		return "-"
	}
	type level struct {
		name string
		load int
	}
	var ls []level
	if a := c.Aggregate; a != nil {
		for _, l := range a.Levels {
			ls = append(ls, level{l.Cluster + "/P" + strconv.Itoa(l.Priority), l.HealthyLoad + l.DegradedLoad})
		}
	} else {
		for _, p := range c.Priorities {
			ls = append(ls, level{"P" + strconv.Itoa(p.Priority), p.HealthyLoad + p.DegradedLoad})
		}
	}
	if len(ls) == 0 {
		return "-"
	}
	s := cmdutil.Pct(ls[0].load)
	var rest []string
	for _, l := range ls[1:] {
		if l.load > 0 {
			rest = append(rest, l.name+" "+cmdutil.Pct(l.load))
		}
	}
	if len(rest) > 0 {
		s += " (" + strings.Join(rest, ", ") + ")"
	}
	return s
}

// spilling reports whether the first level sends less than all the
// traffic today.
func spilling(c traffic.ClusterReport) bool {
	if a := c.Aggregate; a != nil {
		return len(a.Levels) > 1 && a.Levels[0].HealthyLoad+a.Levels[0].DegradedLoad < 100
	}
	return len(c.Priorities) > 1 && c.Priorities[0].HealthyLoad+c.Priorities[0].DegradedLoad < 100
}

var overviewHeaders = []string{"CLUSTER", "POLICY", "HEALTHY", "P0 LOAD", "PANIC", "BUDGET", "FLAGS"}

// overviewTable is encode.Table's layout (header rule, two spaces between
// columns, right columns aligned right, no trailing blanks) written
// directly: lipgloss's table takes seconds over 10,000 rows, which issue
// 30's bound (within 1.5x lint) does not allow. A test holds the two equal.
func overviewTable(t *term.IO, headers []string, rows [][]string, right ...int) string {
	if len(rows) <= 100 {
		return encode.Table(t, headers, rows, right...)
	}
	isRight := map[int]bool{}
	for _, c := range right {
		isRight[c] = true
	}
	width := make([]int, len(headers))
	for i, h := range headers {
		width[i] = lipgloss.Width(h)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], lipgloss.Width(c))
		}
	}
	head := t.Paint(term.Heading).Bold(true)
	lines := make([]string, 0, len(rows)+2)
	line := func(cells []string, style func(...string) string) string {
		var b strings.Builder
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-lipgloss.Width(c))
			if isRight[i] {
				b.WriteString(pad + style(c))
			} else {
				b.WriteString(style(c) + pad)
			}
			if i < len(cells)-1 {
				b.WriteString("  ")
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	total := 2 * (len(headers) - 1)
	for _, w := range width {
		total += w
	}
	rule := "-"
	if t.Unicode() {
		rule = "─"
	}
	lines = append(lines, line(headers, head.Render), t.Paint(term.Rule).Render(strings.Repeat(rule, total)))
	plain := func(s ...string) string { return strings.Join(s, "") }
	for _, r := range rows {
		lines = append(lines, line(r, plain))
	}
	return strings.Join(lines, "\n")
}

// renderOverview writes one table row per cluster, those needing attention
// (rejected ones among them) first, then by name, and how to see more.
func renderOverview(t *term.IO, cfg *config.Config, r *traffic.Report, rejected []*model.RejectedError) {
	rows := make([]overviewRow, 0, len(r.Clusters)+len(rejected))
	for _, re := range rejected {
		rows = append(rows, rejectedRow(cfg, re))
	}
	for _, c := range r.Clusters {
		rows = append(rows, overviewOf(cfg, c))
	}
	attention := 0
	for _, o := range rows {
		if len(o.flags) > 0 {
			attention++
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if (len(rows[i].flags) > 0) != (len(rows[j].flags) > 0) {
			return len(rows[i].flags) > 0
		}
		return rows[i].name < rows[j].name
	})
	cells := make([][]string, 0, len(rows))
	for _, o := range rows {
		flags := strings.Join(o.flags, " ")
		if flags != "" {
			flags = t.Paint(term.Alarm).Render(flags)
		}
		cells = append(cells, []string{o.name, o.policy, o.hosts, o.load, o.panic, o.budget, flags})
	}
	fmt.Fprintln(t.Out, overviewTable(t, overviewHeaders, cells, 2, 5))
	fmt.Fprintf(t.Out, "\n%d clusters, %d needing attention. BUDGET: healthy hosts that can fail before traffic spills.\n", len(rows), attention)
	fmt.Fprintln(t.Out, "One cluster: --cluster NAME (globs allowed); every cluster in full: --details.")
}
