package explain

import (
	"fmt"
	"strconv"

	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
)

// renderExplain writes the report as terminal sections, one per cluster.
func renderExplain(t *term.IO, r *traffic.Report, all bool) {
	for i, c := range r.Clusters {
		if i > 0 {
			fmt.Fprintln(t.Out)
		}
		renderCluster(t, c, all)
	}
}

func renderCluster(t *term.IO, c traffic.ClusterReport, all bool) {
	title := t.Paint(term.Title).Bold(true).Render(c.Name)
	meta := []string{c.LbPolicy}
	if c.Aggregate == nil {
		meta = append(meta, fmt.Sprintf("overprovisioning %.2g", float64(c.OverprovisioningFactor)/100))
	}
	meta = append(meta, "panic threshold "+cmdutil.Pct(c.PanicThreshold))
	if c.PerRequestHosts != "" {
		meta = append(meta, "hosts made per request ("+c.PerRequestHosts+")")
	} else if c.EndpointsMissing {
		// Not an outage: the endpoints are elsewhere (a note says where).
		meta = append(meta, t.Paint(term.Title).Render("no endpoints in the input"))
	} else {
		meta = append(meta, "availability "+cmdutil.Pct(c.NormalizedTotalAvailability))
	}
	if c.TotalPanic && !c.EndpointsMissing && c.PerRequestHosts == "" {
		meta = append(meta, t.Paint(term.Alarm).Bold(true).Render("TOTAL PANIC"))
	}
	fmt.Fprintln(t.Out, cmdutil.Headline(t, title, meta))
	if c.File != "" {
		fmt.Fprintln(t.Out, t.Style().Faint(true).Render("  "+c.File))
	}

	if c.Aggregate != nil && !c.EndpointsMissing {
		renderAggregate(t, c.Aggregate)
	} else if c.Aggregate == nil && len(c.Priorities) > 0 && !c.EndpointsMissing {
		degraded := false
		for _, p := range c.Priorities {
			degraded = degraded || p.Degraded > 0 || p.DegradedLoad > 0
		}
		rows := make([][]string, 0, len(c.Priorities))
		for _, p := range c.Priorities {
			load := float64(p.HealthyLoad+p.DegradedLoad) / 100
			row := []string{"P" + strconv.Itoa(p.Priority), strconv.Itoa(p.Hosts), strconv.Itoa(p.Healthy)}
			if degraded {
				row = append(row, strconv.Itoa(p.Degraded))
			}
			row = append(row, strconv.Itoa(p.Excluded), cmdutil.Pct(p.Health), cmdutil.Pct(p.HealthyLoad))
			if degraded {
				row = append(row, cmdutil.Pct(p.DegradedLoad))
			}
			rows = append(rows, append(row, t.Bar(load, 10), cmdutil.YesNo(t, p.Panic)))
		}
		headers := []string{"PRIORITY", "HOSTS", "HEALTHY", "EXCLUDED", "HEALTH", "LOAD", "", "PANIC"}
		right := []int{1, 2, 3, 4, 5}
		if degraded {
			headers = []string{"PRIORITY", "HOSTS", "HEALTHY", "DEGRADED", "EXCLUDED", "HEALTH", "LOAD", "DEG LOAD", "", "PANIC"}
			right = []int{1, 2, 3, 4, 5, 6, 7}
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, headers, rows, right...))
		for _, p := range c.Priorities {
			if len(p.Localities) == 0 {
				continue
			}
			// Weight columns only where locality weights are in play.
			weighted := false
			for _, l := range p.Localities {
				weighted = weighted || l.Weight > 0 || l.EffectiveWeight > 0
			}
			lrows := make([][]string, 0, len(p.Localities))
			for _, l := range p.Localities {
				row := []string{localityName(l.Region, l.Zone, l.SubZone)}
				if weighted {
					row = append(row, strconv.FormatUint(uint64(l.Weight), 10))
				}
				row = append(row, fmt.Sprintf("%d/%d", l.Healthy, l.Hosts))
				if weighted {
					row = append(row, strconv.FormatFloat(l.EffectiveWeight, 'g', 6, 64))
				}
				lrows = append(lrows, append(row, cmdutil.FPct(l.Share), t.Bar(l.Share, 10)))
			}
			headers, right := []string{"LOCALITY", "HEALTHY", "SHARE", ""}, []int{1, 2}
			if weighted {
				headers, right = []string{"LOCALITY", "WEIGHT", "HEALTHY", "EFFECTIVE", "SHARE", ""}, []int{1, 2, 3, 4}
			}
			fmt.Fprintf(t.Out, "\nLocalities of P%d\n", p.Priority)
			fmt.Fprintln(t.Out, encode.Table(t, headers, lrows, right...))
		}
	}
	if z := c.ZoneRouting; z != nil {
		fmt.Fprintf(t.Out, "\nZone-aware routing: %s", z.State)
		if z.State != "NoLocalityRouting" {
			fmt.Fprintf(t.Out, " (%.2f%% stays local)", float64(z.LocalPercent)/100)
		}
		fmt.Fprintln(t.Out)
	}
	if !c.EndpointsMissing {
		renderBudgets(t, c)
	}
	renderHosts(t, c.Hosts, all)
	cmdutil.Notes(t, c.Notes, cmdutil.NoteList)
}

func renderAggregate(t *term.IO, a *traffic.AggregateReport) {
	rows := make([][]string, 0, len(a.Levels))
	for i, l := range a.Levels {
		load := float64(l.HealthyLoad+l.DegradedLoad) / 100
		child := "no"
		if l.ChildPanic {
			child = t.Paint(term.Alarm).Render("panic")
		}
		rows = append(rows, []string{strconv.Itoa(i), l.Cluster, "P" + strconv.Itoa(l.Priority), cmdutil.Pct(l.Health),
			cmdutil.Pct(l.HealthyLoad + l.DegradedLoad), t.Bar(load, 10), cmdutil.YesNo(t, l.Panic), child})
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"LEVEL", "CLUSTER", "PRIORITY", "HEALTH", "LOAD", "", "PANIC", "CHILD PANIC"}, rows, 0, 3, 4))
	crow := make([][]string, 0, len(a.ClusterLoad))
	for _, c := range a.ClusterLoad {
		crow = append(crow, []string{c.Cluster, cmdutil.Pct(c.Load), t.Bar(float64(c.Load)/100, 20)})
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"CHILD CLUSTER", "TRAFFIC", ""}, crow, 1))
}

func renderHosts(t *term.IO, hosts []traffic.HostReport, all bool) {
	if len(hosts) == 0 {
		return
	}
	shown := hosts
	if !all && len(hosts) > cmdutil.TopHosts {
		shown = hosts[:cmdutil.TopHosts]
	}
	aggregate := hosts[0].Cluster != ""
	rows := make([][]string, 0, len(shown))
	for _, h := range shown {
		share, bar := "-", ""
		if h.Share != nil {
			share, bar = cmdutil.FPct(*h.Share), t.Bar(*h.Share, 10)
		}
		row := []string{}
		if aggregate {
			row = append(row, h.Cluster)
		}
		row = append(row, h.Address, "P"+strconv.Itoa(h.Priority), localityName(h.Region, h.Zone, h.SubZone),
			cmdutil.HealthText(h.Health), strconv.FormatUint(uint64(h.Weight), 10), share, bar)
		rows = append(rows, row)
	}
	headers := []string{"HOST", "PRIORITY", "LOCALITY", "HEALTH", "WEIGHT", "SHARE", ""}
	right := []int{4, 5}
	if aggregate {
		headers = append([]string{"CLUSTER"}, headers...)
		right = []int{5, 6}
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, headers, rows, right...))
	if len(shown) < len(hosts) {
		fmt.Fprintln(t.Out, t.Style().Faint(true).Render(fmt.Sprintf("%s %d more hosts (--all lists every host)", t.Ellipsis(), len(hosts)-len(shown))))
	}
}

func localityName(region, zone, subZone string) string {
	switch {
	case region == "" && zone == "" && subZone == "":
		return "-"
	case subZone == "":
		return region + "/" + zone
	}
	return region + "/" + zone + "/" + subZone
}
