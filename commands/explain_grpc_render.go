package commands

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	lbgrpc "github.com/lbctl/lbctl/lbmodel/grpc"
)

// minSideColumn is the narrowest column --semantics both puts side by
// side (a host table needs about 80 columns before it wraps cells); below
// it the two answers are printed one after the other.
const minSideColumn = 80

// renderExplainGRPC writes gRPC's answer, one section per cluster.
func renderExplainGRPC(t *Term, r *traffic.Report, impl lbgrpc.Impl, all bool) {
	for i, c := range r.Clusters {
		if i > 0 {
			fmt.Fprintln(t.Out)
		}
		renderGRPCCluster(t, c, impl, all)
	}
}

func renderGRPCCluster(t *Term, c traffic.ClusterReport, impl lbgrpc.Impl, all bool) {
	title := t.Style().Bold(true).Foreground(lipgloss.Color("11")).Render(c.Name)
	meta := []string{"gRPC (" + impl.String() + ")", c.LbPolicy}
	if c.NoHostShare >= 1 {
		meta = append(meta, t.Style().Foreground(lipgloss.Color("9")).Bold(true).Render("RPCs FAIL"))
	}
	fmt.Fprint(t.Out, headline(t, title, meta)+"\n")
	if c.File != "" {
		fmt.Fprintln(t.Out, t.Style().Faint(true).Render("  "+c.File))
	}
	if a := c.Aggregate; a != nil {
		if len(a.Levels) > 0 {
			rows := make([][]string, 0, len(a.Levels))
			for i, l := range a.Levels {
				rows = append(rows, []string{strconv.Itoa(i), l.Cluster, "P" + strconv.Itoa(l.Priority), pct(l.HealthyLoad), t.bar(float64(l.HealthyLoad)/100, 10)})
			}
			fmt.Fprintln(t.Out)
			fmt.Fprintln(t.Out, t.newTable([]string{"LEVEL", "CLUSTER", "PRIORITY", "LOAD", ""}, rows, 0, 3))
		}
	} else if len(c.Priorities) > 0 {
		rows := make([][]string, 0, len(c.Priorities))
		for _, p := range c.Priorities {
			rows = append(rows, []string{"P" + strconv.Itoa(p.Priority), strconv.Itoa(p.Hosts), strconv.Itoa(p.Healthy), pct(p.HealthyLoad), t.bar(float64(p.HealthyLoad)/100, 10)})
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, t.newTable([]string{"PRIORITY", "HOSTS", "USABLE", "LOAD", ""}, rows, 1, 2, 3))
		for _, p := range c.Priorities {
			if len(p.Localities) == 0 {
				continue
			}
			lrows := make([][]string, 0, len(p.Localities))
			for _, l := range p.Localities {
				lrows = append(lrows, []string{localityName(l.Region, l.Zone, l.SubZone), strconv.FormatUint(uint64(l.Weight), 10),
					fmt.Sprintf("%d/%d", l.Healthy, l.Hosts), fpct(l.Share), t.bar(l.Share, 10)})
			}
			fmt.Fprintf(t.Out, "\nLocalities of P%d (weighted random)\n", p.Priority)
			fmt.Fprintln(t.Out, t.newTable([]string{"LOCALITY", "WEIGHT", "USABLE", "SHARE", ""}, lrows, 1, 2, 3))
		}
	}
	renderHosts(t, c.Hosts, all)
	renderNotes(t, c.Notes)
}

func renderNotes(t *Term, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(t.Out)
	bullet := "-"
	if t.Unicode() {
		bullet = "•"
	}
	for _, n := range notes {
		fmt.Fprintln(t.Out, wrap(bullet+" "+n, t.Width, "  "))
	}
}

// renderBoth prints Envoy's and gRPC's answers for each cluster side by
// side when the terminal is wide enough (or unlimited), else one after the
// other, then the differences as notes.
func renderBoth(t *Term, b *proxyless.BothReport, impl lbgrpc.Impl, all bool) {
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
		lt, rt := t.sub(&left, col), t.sub(&right, col)
		if !side {
			lt, rt = t.sub(&left, t.Width), t.sub(&right, t.Width)
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
			renderNotes(t, diffs)
		}
	}
}

// sub is a Term writing to w with this one's TTY and colour decisions and
// the given width.
func (t *Term) sub(w io.Writer, width int) *Term {
	s := &Term{Out: w, TTY: t.TTY, Color: t.Color, Width: width, r: lipgloss.NewRenderer(w)}
	if t.Color {
		s.r.SetColorProfile(termenv.ANSI256)
	} else {
		s.r.SetColorProfile(termenv.Ascii)
	}
	s.r.SetHasDarkBackground(true)
	return s
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
