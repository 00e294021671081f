package commands

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
)

// newTable is the one table style lbctl uses: a header rule and no other
// borders, box drawing on a terminal and plain ASCII in a pipe, numeric
// columns right-aligned, and no wider than the terminal.
func (t *Term) newTable(headers []string, rows [][]string, rightAligned ...int) string {
	border := lipgloss.ASCIIBorder()
	if t.Unicode() {
		border = lipgloss.NormalBorder()
	}
	right := map[int]bool{}
	for _, c := range rightAligned {
		right[c] = true
	}
	head := t.Style().Bold(true).Foreground(lipgloss.Color("12"))
	tb := table.New().
		Border(border).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(true).
		BorderStyle(t.Style().Foreground(lipgloss.Color("8"))).
		Headers(headers...).
		Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := t.Style().PaddingRight(2)
			if row == table.HeaderRow {
				s = head.PaddingRight(2)
			}
			if right[col] {
				s = s.Align(lipgloss.Right)
			}
			return s
		})
	out := tb.String()
	if t.Width > 0 && lipgloss.Width(out) > t.Width {
		out = tb.Width(t.Width).String()
	}
	return strings.TrimRight(stripTrailing(out), "\n")
}

func stripTrailing(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// bar draws a share (0..1) as a bar of width cells: eighth blocks on a
// terminal, '#' in a pipe.
func (t *Term) bar(share float64, width int) string {
	if math.IsNaN(share) || share < 0 {
		share = 0
	}
	share = min(share, 1)
	if !t.Unicode() {
		n := int(math.Round(share * float64(width)))
		return strings.Repeat("#", n) + strings.Repeat(".", width-n)
	}
	eighths := int(math.Round(share * float64(width) * 8))
	full, part := eighths/8, eighths%8
	s := strings.Repeat("█", full)
	if part > 0 {
		s += string([]rune(" ▏▎▍▌▋▊▉")[part])
	}
	s += strings.Repeat(" ", max(0, width-full-min(part, 1)))
	return t.Style().Foreground(lipgloss.Color("6")).Render(s)
}
