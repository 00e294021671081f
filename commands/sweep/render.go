package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// series is one stacked quantity of a sweep: a priority's load (healthy
// plus degraded) or, for an aggregate, a child cluster's load, per row.
type series struct {
	name   string
	values []int
}

// sweepSeries is what the table columns and the charts stack.
func sweepSeries(s failure.Sweep) []series {
	if len(s.Rows) == 0 {
		return nil
	}
	var out []series
	if s.Rows[0].ClusterLoad != nil {
		for i, c := range s.Rows[0].ClusterLoad {
			se := series{name: c.Cluster}
			for _, r := range s.Rows {
				se.values = append(se.values, r.ClusterLoad[i].Load)
			}
			out = append(out, se)
		}
		return out
	}
	for i, l := range s.Rows[0].Priorities {
		se := series{name: "P" + strconv.Itoa(l.Priority)}
		for _, r := range s.Rows {
			se.values = append(se.values, r.Priorities[i].HealthyLoad+r.Priorities[i].DegradedLoad)
		}
		out = append(out, se)
	}
	return out
}

// variedName is "P0", or "primary/P0" / "primary" in an aggregate.
func variedName(s failure.Sweep, v failure.Varied) string {
	switch {
	case v.Cluster == s.Cluster:
		return "P" + strconv.Itoa(v.Priority)
	case v.Priority < 0:
		return v.Cluster
	}
	return v.Cluster + "/P" + strconv.Itoa(v.Priority)
}

// healthText is a step's health, e.g. "70%" or "33.3%".
func healthPct(h float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(h, 'f', 1, 64), ".0") + "%"
}

// panicLevels lists the levels in panic in a row, "-" when none.
func panicLevels(r failure.SweepRow) string {
	var out []string
	for _, l := range r.Priorities {
		if l.Panic {
			n := "P" + strconv.Itoa(l.Priority)
			if l.Cluster != "" {
				n = l.Cluster + "/" + n
			}
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}

// renderSweep writes a one-level sweep as a table and a stacked bar
// chart, a grid as a matrix of loads.
func renderSweep(t *term.IO, s failure.Sweep) {
	title := t.Style().Bold(true).Render(s.Cluster)
	facts := []string{"varying " + variedName(s, s.Varied)}
	if s.Grid != nil {
		facts[0] += " × " + variedName(s, *s.Grid)
	}
	fmt.Fprintln(t.Out, cmdutil.Headline(t, title, facts))
	fmt.Fprintln(t.Out)
	if s.Grid != nil {
		renderSweepGrid(t, s)
		return
	}
	ser := sweepSeries(s)
	headers := []string{"HEALTHY", "HEALTH"}
	right := []int{0, 1}
	for i, se := range ser {
		headers = append(headers, se.name)
		right = append(right, 2+i)
	}
	headers = append(headers, "PANIC", "TOTAL PANIC")
	rows := make([][]string, 0, len(s.Rows))
	for i, r := range s.Rows {
		st := r.Steps[0]
		row := []string{fmt.Sprintf("%d/%d", st.Healthy, st.Total), healthPct(st.Health)}
		for _, se := range ser {
			row = append(row, cmdutil.Pct(se.values[i]))
		}
		rows = append(rows, append(row, panicLevels(r), cmdutil.YesNo(t, r.TotalPanic)))
	}
	fmt.Fprintln(t.Out, encode.Table(t, headers, rows, right...))
	fmt.Fprintln(t.Out)
	fmt.Fprint(t.Out, sweepChart(t, s, ser))
	if s.Rows[0].Hosts != nil {
		renderSweepHosts(t, s)
	}
}

// renderSweepGrid writes a matrix: a row per healthy count of the first
// level, a column per count of the second, each cell the stacked loads.
func renderSweepGrid(t *term.IO, s failure.Sweep) {
	ser := sweepSeries(s)
	var cols []int
	for _, r := range s.Rows {
		if r.Steps[0].Healthy != s.Rows[0].Steps[0].Healthy {
			break
		}
		cols = append(cols, r.Steps[1].Healthy)
	}
	headers := []string{variedName(s, s.Varied) + " \\ " + variedName(s, *s.Grid)}
	right := []int{}
	for i, c := range cols {
		headers = append(headers, fmt.Sprintf("%d/%d", c, s.Rows[0].Steps[1].Total))
		right = append(right, i+1)
	}
	var rows [][]string
	for i := 0; i+len(cols) <= len(s.Rows); i += len(cols) {
		st := s.Rows[i].Steps[0]
		row := []string{fmt.Sprintf("%d/%d", st.Healthy, st.Total)}
		for j := range cols {
			var parts []string
			for _, se := range ser {
				parts = append(parts, strconv.Itoa(se.values[i+j]))
			}
			cell := strings.Join(parts, "/")
			if s.Rows[i+j].TotalPanic {
				cell += "!"
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	fmt.Fprintln(t.Out, encode.Table(t, headers, rows, right...))
	names := make([]string, len(ser))
	for i, se := range ser {
		names[i] = se.name
	}
	fmt.Fprintln(t.Out, t.Style().Faint(true).Render(fmt.Sprintf("cells: %s load in percent (healthy hosts of each level across and down); ! total panic",
		strings.Join(names, "/"))))
}

// renderSweepHosts lists every host with a share at each step.
func renderSweepHosts(t *term.IO, s failure.Sweep) {
	var rows [][]string
	for _, r := range s.Rows {
		st := r.Steps[0]
		for _, h := range r.Hosts {
			if h.Share == 0 {
				continue
			}
			name := h.Address
			if h.Cluster != "" {
				name = h.Cluster + " " + name
			}
			rows = append(rows, []string{fmt.Sprintf("%d/%d", st.Healthy, st.Total), name, cmdutil.FPct(h.Share), t.Bar(h.Share, 10)})
		}
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"HEALTHY", "HOST", "SHARE", ""}, rows, 0, 2))
	fmt.Fprintln(t.Out, t.Style().Faint(true).Render("hosts with no traffic at a step are left out; -o json lists every host"))
}
