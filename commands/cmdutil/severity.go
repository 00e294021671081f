package cmdutil

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lint"
)

// SeverityStyle colours a severity as compilers do: errors red, warnings
// yellow, information cyan.
func SeverityStyle(t *term.IO, s lint.Severity) lipgloss.Style {
	c := map[lint.Severity]term.Color{lint.SevError: term.Alarm, lint.SevWarning: term.Title, lint.SevInfo: term.Info}[s]
	return t.Paint(c).Bold(true)
}
