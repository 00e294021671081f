package explain

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	lbgrpc "github.com/lbctl/lbctl/lbmodel/grpc"

	"github.com/charmbracelet/lipgloss"
)

// minSideColumn is the narrowest column --semantics both puts side by
// side (a host table needs about 80 columns before it wraps cells); below
// it the two answers are printed one after the other.
const minSideColumn = 80

// renderExplainGRPC writes gRPC's answer, one section per cluster.
func renderExplainGRPC(t *term.IO, r *traffic.Report, impl lbgrpc.Impl, all bool) {
	for i, c := range r.Clusters {
		if i > 0 {
			fmt.Fprintln(t.Out)
		}
		renderGRPCCluster(t, c, impl, all)
	}
}

func renderGRPCCluster(t *term.IO, c traffic.ClusterReport, impl lbgrpc.Impl, all bool) {
	title := t.Paint(term.Title).Bold(true).Render(c.Name)
	meta := []string{"gRPC (" + impl.String() + ")", c.LbPolicy}
	if c.NoHostShare >= 1 {
		meta = append(meta, t.Paint(term.Alarm).Bold(true).Render("RPCs FAIL"))
	}
	fmt.Fprint(t.Out, cmdutil.Headline(t, title, meta)+"\n")
	if c.File != "" {
		fmt.Fprintln(t.Out, t.Style().Faint(true).Render("  "+c.File))
	}
	if a := c.Aggregate; a != nil {
		if len(a.Levels) > 0 {
			rows := make([][]string, 0, len(a.Levels))
			for i, l := range a.Levels {
				rows = append(rows, []string{strconv.Itoa(i), l.Cluster, "P" + strconv.Itoa(l.Priority), cmdutil.Pct(l.HealthyLoad), t.Bar(float64(l.HealthyLoad)/100, 10)})
			}
			fmt.Fprintln(t.Out)
			fmt.Fprintln(t.Out, encode.Table(t, []string{"LEVEL", "CLUSTER", "PRIORITY", "LOAD", ""}, rows, 0, 3))
		}
	} else if len(c.Priorities) > 0 {
		rows := make([][]string, 0, len(c.Priorities))
		for _, p := range c.Priorities {
			rows = append(rows, []string{"P" + strconv.Itoa(p.Priority), strconv.Itoa(p.Hosts), strconv.Itoa(p.Healthy), cmdutil.Pct(p.HealthyLoad), t.Bar(float64(p.HealthyLoad)/100, 10)})
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, []string{"PRIORITY", "HOSTS", "USABLE", "LOAD", ""}, rows, 1, 2, 3))
		for _, p := range c.Priorities {
			if len(p.Localities) == 0 {
				continue
			}
			lrows := make([][]string, 0, len(p.Localities))
			for _, l := range p.Localities {
				lrows = append(lrows, []string{localityName(l.Region, l.Zone, l.SubZone), strconv.FormatUint(uint64(l.Weight), 10),
					fmt.Sprintf("%d/%d", l.Healthy, l.Hosts), cmdutil.FPct(l.Share), t.Bar(l.Share, 10)})
			}
			fmt.Fprintf(t.Out, "\nLocalities of P%d (weighted random)\n", p.Priority)
			fmt.Fprintln(t.Out, encode.Table(t, []string{"LOCALITY", "WEIGHT", "USABLE", "SHARE", ""}, lrows, 1, 2, 3))
		}
	}
	renderHosts(t, c.Hosts, all)
	cmdutil.Notes(t, c.Notes, cmdutil.NoteList)
}

// renderBoth prints Envoy's and gRPC's answers for each cluster side by
// side when the terminal is wide enough (or unlimited), else one after the
// other, then the differences as notes.
func renderBoth(t *term.IO, b *proxyless.BothReport, impl lbgrpc.Impl, all bool) {
	for i := range b.Envoy.Clusters {
		if i > 0 {
			fmt.Fprintln(t.Out)
		}
		col := 0
		if t.Width > 0 {
			col = (t.Width - 3) / 2
		}
		side := t.Width == 0 || col >= minSideColumn
		var left, right bytes.Buffer
		lt, rt := t.Sub(&left, col), t.Sub(&right, col)
		if !side {
			lt, rt = t.Sub(&left, t.Width), t.Sub(&right, t.Width)
		}
		fmt.Fprintln(lt.Out, t.Style().Bold(true).Render("ENVOY"))
		renderCluster(lt, b.Envoy.Clusters[i], all)
		fmt.Fprintln(rt.Out, t.Style().Bold(true).Render("gRPC"))
		renderGRPCCluster(rt, b.GRPC.Clusters[i], impl, all)
		if side {
			sep := " | "
			if t.Unicode() {
				sep = " │ "
			}
			fmt.Fprint(t.Out, joinColumns(left.String(), right.String(), sep))
		} else {
			fmt.Fprint(t.Out, left.String())
			fmt.Fprintln(t.Out)
			fmt.Fprint(t.Out, right.String())
		}
		var diffs []string
		for _, d := range b.Differences {
			if d.Cluster == b.Envoy.Clusters[i].Name {
				diffs = append(diffs, fmt.Sprintf("%s: Envoy %s; gRPC %s", d.What, d.Envoy, d.GRPC))
			}
		}
		if len(diffs) > 0 {
			fmt.Fprintln(t.Out)
			fmt.Fprintln(t.Out, t.Style().Bold(true).Render("Differences"))
			cmdutil.Notes(t, diffs, cmdutil.NoteList)
		}
	}
}

// joinColumns puts two blocks of lines side by side, padding the left one
// to its widest line.
func joinColumns(left, right, sep string) string {
	l := strings.Split(strings.TrimRight(left, "\n"), "\n")
	r := strings.Split(strings.TrimRight(right, "\n"), "\n")
	w := 0
	for _, s := range l {
		w = max(w, lipgloss.Width(s))
	}
	var b strings.Builder
	for i := 0; i < max(len(l), len(r)); i++ {
		var a, c string
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			c = r[i]
		}
		line := a + strings.Repeat(" ", w-lipgloss.Width(a)) + sep + c
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}
