package cmdutil

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/lbctl/lbctl/commands/term"
)

// TopHosts is how many hosts text output lists without --all.
const TopHosts = 10

// Pct is an integer percentage.
func Pct(v int) string { return strconv.Itoa(v) + "%" }

// FPct is a share (0..1) as a percentage with two decimals.
func FPct(v float64) string { return strconv.FormatFloat(v*100, 'f', 2, 64) + "%" }

// YesNo is a panic flag: PANIC in alarm colour, or no.
func YesNo(t *term.IO, b bool) string {
	if b {
		return t.Paint(term.Alarm).Bold(true).Render("PANIC")
	}
	return "no"
}

// Wrap breaks s into lines of at most width columns, indenting the rest.
func Wrap(s string, width int, indent string) string {
	if width == 0 {
		width = 100
	}
	if width < 40 {
		width = 40
	}
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(s) {
		n := lipgloss.Width(w)
		if i > 0 && line+1+n > width {
			b.WriteString("\n" + indent)
			line = len(indent)
		} else if i > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += n
	}
	return b.String()
}

// NoteForm is where a report's notes stand in its text.
type NoteForm int

const (
	// NoteList: after a blank line, one bullet each, wrapped to the
	// terminal, under a whole report or cluster.
	NoteList NoteForm = iota
	// NoteInline: "  note: …" in faint, each on its line, right under
	// the result it qualifies (subset's selections).
	NoteInline
)

// Notes writes notes in form: every command's notes go through here.
func Notes(t *term.IO, notes []string, form NoteForm) {
	if form == NoteInline {
		faint := t.Style().Faint(true)
		for _, n := range notes {
			fmt.Fprintln(t.Out, faint.Render("  note: "+n))
		}
		return
	}
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(t.Out)
	bullet := "-"
	if t.Unicode() {
		bullet = "•"
	}
	for _, n := range notes {
		fmt.Fprintln(t.Out, Wrap(bullet+" "+n, t.Width, "  "))
	}
}

// Headline writes a cluster's name and its facts separated by t.Sep(),
// breaking between facts (never inside one) so that the line is not
// wrapped by an 80-column terminal in the middle of a number.
func Headline(t *term.IO, title string, facts []string) string {
	sep := t.Sep()
	faint := t.Style().Faint(true)
	var b strings.Builder
	b.WriteString(title)
	line := lipgloss.Width(title)
	for i, f := range facts {
		n := lipgloss.Width(f)
		switch {
		case i == 0:
			b.WriteString("  ")
			line += 2
		case t.Width > 0 && line+len(sep)+n > t.Width:
			b.WriteString("\n  ")
			line = 2
		default:
			b.WriteString(faint.Render(sep))
			line += lipgloss.Width(sep)
		}
		b.WriteString(faint.Render(f))
		line += n
	}
	return b.String()
}

// HealthText is a host's health in Envoy's own vocabulary, the EDS
// health_status name (UNKNOWN, HEALTHY, DEGRADED, UNHEALTHY, DRAINING,
// TIMEOUT), the same word in every table and in JSON. UNKNOWN and HEALTHY
// both count as healthy (HostImplBase::setEdsHealthFlag).
func HealthText(status string) string { return status }
