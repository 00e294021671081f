package sweep

import (
	"fmt"
	"html"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// SVG chart geometry (user units).
const (
	svgW, svgH           = 760, 440
	svgLeft, svgRight    = 70, 190 // the right margin holds the legend
	svgTop, svgBottom    = 60, 70
	svgPlotW, svgPlotH   = svgW - svgLeft - svgRight, svgH - svgTop - svgBottom
	svgFont              = `font-family="Helvetica, Arial, sans-serif"`
	svgPanicColor        = "#D55E00"
	svgAxisColor         = "#333333"
	svgGridColor         = "#DDDDDD"
	svgTitleSize, svgTxt = 16, 12
)

// SVG draws a one-level sweep as a standalone stacked area chart:
// health of the varied level on x (100% at the left), the load of each
// priority or child cluster stacked on y, total panic marked. Everything
// from the configuration is escaped.
func SVG(s failure.Sweep) string {
	ser := sweepSeries(s)
	// Control characters are not allowed in XML: written as \x1b etc.
	esc := func(v string) string { return html.EscapeString(config.Escape(v)) }
	x := func(health float64) float64 { return svgLeft + (100-health)/100*svgPlotW }
	y := func(load float64) float64 { return svgTop + (100-load)/100*svgPlotH }
	varied := variedName(s, s.Varied)
	what := "priority"
	if s.Rows != nil && s.Rows[0].ClusterLoad != nil {
		what = "child cluster"
	}
	title := fmt.Sprintf("%s: load per %s as %s loses health", s.Cluster, what, varied)

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-labelledby="title desc">`+"\n", svgW, svgH, svgW, svgH)
	fmt.Fprintf(&b, "<title id=\"title\">%s</title>\n", esc(title))
	fmt.Fprintf(&b, "<desc id=\"desc\">Stacked area chart made by lbctl sweep: for each share of %s's hosts healthy (x axis, 100%% at the left), the percentage of %s's traffic each %s receives (y axis).</desc>\n",
		esc(varied), esc(s.Cluster), what)
	fmt.Fprintf(&b, `<rect class="background" x="0" y="0" width="%d" height="%d" fill="#FFFFFF"/>`+"\n", svgW, svgH)
	fmt.Fprintf(&b, `<text class="title" x="%d" y="%d" %s font-size="%d" font-weight="bold">%s</text>`+"\n", svgLeft, svgTop-28, svgFont, svgTitleSize, esc(title))

	// Grid lines and ticks every 25%.
	b.WriteString(`<g class="grid" stroke="` + svgGridColor + `" stroke-width="1">` + "\n")
	for v := 0; v <= 100; v += 25 {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`+"\n", svgLeft, y(float64(v)), svgLeft+svgPlotW, y(float64(v)))
	}
	b.WriteString("</g>\n")

	// Stacked areas, bottom series first.
	b.WriteString(`<g class="areas" stroke="#FFFFFF" stroke-width="0.5">` + "\n")
	lower := make([]float64, len(s.Rows))
	for i, se := range ser {
		var top, bottom []string
		upper := make([]float64, len(s.Rows))
		for r, row := range s.Rows {
			upper[r] = lower[r] + float64(se.values[r])
			top = append(top, fmt.Sprintf("%.1f,%.1f", x(row.Steps[0].Health), y(upper[r])))
		}
		for r := len(s.Rows) - 1; r >= 0; r-- {
			bottom = append(bottom, fmt.Sprintf("%.1f,%.1f", x(s.Rows[r].Steps[0].Health), y(lower[r])))
		}
		fmt.Fprintf(&b, `<polygon class="series" data-series="%s" fill="%s" points="%s"><title>%s</title></polygon>`+"\n",
			esc(se.name), term.Chart[i%len(term.Chart)], strings.Join(append(top, bottom...), " "), esc(se.name))
		lower = upper
	}
	b.WriteString("</g>\n")

	// Total panic: a dashed line where it starts.
	for r, row := range s.Rows {
		if row.TotalPanic && (r == 0 || !s.Rows[r-1].TotalPanic) {
			px := x(row.Steps[0].Health)
			fmt.Fprintf(&b, `<line class="panic" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2" stroke-dasharray="6 4"/>`+"\n",
				px, svgTop, px, svgTop+svgPlotH, svgPanicColor)
			fmt.Fprintf(&b, `<text class="panic-label" x="%.1f" y="%d" %s font-size="%d" fill="%s" text-anchor="middle">total panic</text>`+"\n",
				px, svgTop-6, svgFont, svgTxt, svgPanicColor)
			break
		}
	}

	// Axes, tick labels and axis titles.
	fmt.Fprintf(&b, `<g class="axes" stroke="%s" stroke-width="1.5" fill="none"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
		svgAxisColor, svgLeft, svgTop, svgLeft, svgTop+svgPlotH, svgLeft, svgTop+svgPlotH, svgLeft+svgPlotW, svgTop+svgPlotH)
	fmt.Fprintf(&b, `<g class="ticks" %s font-size="%d" fill="%s">`+"\n", svgFont, svgTxt, svgAxisColor)
	for v := 0; v <= 100; v += 25 {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%d%%</text>`+"\n", svgLeft-8, y(float64(v))+4, v)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d%%</text>`+"\n", x(float64(v)), svgTop+svgPlotH+18, v)
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<text class="x-label" x="%d" y="%d" %s font-size="%d" text-anchor="middle">hosts of %s healthy</text>`+"\n",
		svgLeft+svgPlotW/2, svgH-22, svgFont, svgTxt+1, esc(varied))
	fmt.Fprintf(&b, `<text class="y-label" transform="translate(%d %d) rotate(-90)" %s font-size="%d" text-anchor="middle">share of traffic</text>`+"\n",
		22, svgTop+svgPlotH/2, svgFont, svgTxt+1)

	// Legend, top series first so it reads like the stack.
	fmt.Fprintf(&b, `<g class="legend" %s font-size="%d">`+"\n", svgFont, svgTxt)
	lx := svgLeft + svgPlotW + 24
	for i := len(ser) - 1; i >= 0; i-- {
		ly := svgTop + 10 + (len(ser)-1-i)*22
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="14" height="14" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			lx, ly, term.Chart[i%len(term.Chart)], lx+20, ly+12, esc(ser[i].name))
	}
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}
