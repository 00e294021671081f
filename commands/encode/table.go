// Package encode holds the writers commands share: the one table style,
// JSON and YAML. Every byte they write goes to a term.IO's output, so
// through its Guard.
package encode

import (
	"strings"

	"github.com/lbctl/lbctl/commands/term"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
)

// Table is the one table style lbctl uses: a header rule and no other
// borders, box drawing on a terminal and plain ASCII in a pipe, numeric
// columns right-aligned, and no wider than the terminal.
//
// A column with an empty header is decoration (a bar drawn with t.Bar
// beside the number it repeats). When the table does not fit, the gaps
// between columns shrink first, then the bar columns go; only a table
// still too wide after that has its cells wrapped by lipgloss. So at 80
// columns rows stay on one line and numbers are never cut.
func Table(t *term.IO, headers []string, rows [][]string, rightAligned ...int) string {
	right := map[int]bool{}
	for _, c := range rightAligned {
		right[c] = true
	}
	out := renderTable(t, headers, rows, right, 2, 0)
	if t.Width <= 0 || lipgloss.Width(out) <= t.Width {
		return out
	}
	if out = renderTable(t, headers, rows, right, 1, 0); lipgloss.Width(out) <= t.Width {
		return out
	}
	headers, rows, right = dropBarColumns(headers, rows, right)
	for _, gap := range []int{2, 1} {
		if out = renderTable(t, headers, rows, right, gap, 0); lipgloss.Width(out) <= t.Width {
			return out
		}
	}
	return renderTable(t, headers, rows, right, 1, t.Width)
}

// renderTable draws one table with gap spaces between columns; width > 0
// makes lipgloss fit it to that width.
func renderTable(t *term.IO, headers []string, rows [][]string, right map[int]bool, gap, width int) string {
	border := lipgloss.ASCIIBorder()
	if t.Unicode() {
		border = lipgloss.NormalBorder()
	}
	last := len(headers) - 1
	head := t.Paint(term.Heading).Bold(true)
	tb := table.New().
		Border(border).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(true).
		BorderStyle(t.Paint(term.Rule)).
		Headers(headers...).
		Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := t.Style()
			if row == table.HeaderRow {
				s = head
			}
			if col < last {
				// No padding after the last column: the header rule
				// then ends where the widest row ends.
				s = s.PaddingRight(gap)
			}
			if right[col] {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	if width > 0 {
		tb = tb.Width(width)
	}
	return strings.TrimRight(stripTrailing(tb.String()), "\n")
}

// dropBarColumns removes the columns whose header is empty (bars) and
// renumbers the right-aligned columns.
func dropBarColumns(headers []string, rows [][]string, right map[int]bool) ([]string, [][]string, map[int]bool) {
	keep := []int{}
	for i, h := range headers {
		if h != "" {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(headers) || len(keep) == 0 {
		return headers, rows, right
	}
	nh := make([]string, len(keep))
	nr := map[int]bool{}
	for j, i := range keep {
		nh[j] = headers[i]
		nr[j] = right[i]
	}
	nrows := make([][]string, len(rows))
	for r, row := range rows {
		nrows[r] = make([]string, 0, len(keep))
		for _, i := range keep {
			if i < len(row) {
				nrows[r] = append(nrows[r], row[i])
			}
		}
	}
	return nh, nrows, nr
}

func stripTrailing(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
