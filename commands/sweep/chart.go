package sweep

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// chartFills tell the series apart without colour (NO_COLOR, pipes);
// term.Chart colours them.
var (
	chartFills      = []string{"█", "▓", "▒", "░", "▞", "▚", "▤", "▥"}
	chartFillsASCII = []string{"#", "=", "+", ":", "%", "@", "*", "~"}
)

// sweepChart draws one horizontal stacked bar per row: each series'
// share of the bar is its load, so the bars show traffic moving between
// levels as health falls.
func sweepChart(t *term.IO, s failure.Sweep, ser []series) string {
	fills := chartFillsASCII
	if t.Unicode() {
		fills = chartFills
	}
	width := 50
	if t.Width > 0 {
		width = max(10, min(width, t.Width-20))
	}
	style := func(i int) lipgloss.Style {
		return t.Paint(term.Chart[i%len(term.Chart)])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Load by health of %s\n", variedName(s, s.Varied))
	for r, row := range s.Rows {
		fmt.Fprintf(&b, "%7s ", healthPct(row.Steps[0].Health))
		cum, end := 0, 0
		for i, se := range ser {
			cum += se.values[r]
			next := int(math.Round(float64(cum) * float64(width) / 100))
			if n := next - end; n > 0 {
				b.WriteString(style(i).Render(strings.Repeat(fills[i%len(fills)], n)))
			}
			end = next
		}
		b.WriteString(strings.Repeat(" ", max(0, width-end)))
		if row.TotalPanic {
			b.WriteString(" " + t.Paint(term.Alarm).Render("total panic"))
		}
		b.WriteString("\n")
	}
	legend := make([]string, len(ser))
	for i, se := range ser {
		legend[i] = style(i).Render(fills[i%len(fills)]+fills[i%len(fills)]) + " " + se.name
	}
	fmt.Fprintf(&b, "%7s %s\n", "", strings.Join(legend, "  "))
	return b.String()
}
