package commands

import (
	"io"
	"os"
	"strconv"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"github.com/urfave/cli/v3"
)

// Term is the one place that decides how output looks: whether stdout is a
// terminal, whether to use colour, and how wide tables may be.
type Term struct {
	Out io.Writer
	// TTY: stdout is a terminal. Off a terminal, output is plain ASCII.
	TTY   bool
	Color bool
	Width int // 0: unlimited
	// dumb: TERM=dumb, which can show neither colour nor box drawing.
	dumb bool
	r    *lipgloss.Renderer
}

// termDecision is what decideTerm needs to know about the output and the
// environment; it keeps the decision pure so it can be tested as a table.
type termDecision struct {
	tty      bool   // the output is a terminal
	ttyWidth int    // its width in columns, 0 when unknown
	color    string // --color: auto, always or never
}

// decideTerm applies, in this order of precedence: --color always|never;
// NO_COLOR (any non-empty value: no colour, https://no-color.org);
// CLICOLOR_FORCE (non-empty and not "0": colour even in a pipe); then
// colour only on a terminal whose TERM is not "dumb". COLUMNS, when a
// positive integer, overrides the measured width (also in a pipe, so
// `COLUMNS=80 lbctl … | less` is narrow); off a terminal the width is
// otherwise unlimited.
func decideTerm(d termDecision, getenv func(string) string) (tty, color, dumb bool, width int) {
	tty, width = d.tty, d.ttyWidth
	if !tty {
		width = 0
	}
	if c, err := strconv.Atoi(getenv("COLUMNS")); err == nil && c > 0 {
		width = c
	}
	dumb = getenv("TERM") == "dumb"
	switch d.color {
	case "always":
		color = true
	case "never":
		color = false
	default:
		force := getenv("CLICOLOR_FORCE")
		switch {
		case getenv("NO_COLOR") != "":
			color = false
		case force != "" && force != "0":
			color = true
		default:
			color = tty && !dumb
		}
	}
	return tty, color, dumb, width
}

// newTerm measures out (is it a terminal, how wide) and applies
// decideTerm.
func newTerm(out io.Writer, color string) *Term {
	d := termDecision{color: color}
	if f, ok := unguard(out).(*os.File); ok && isTerminal(f) {
		d.tty = true
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			d.ttyWidth = w
		}
	}
	t := &Term{Out: out}
	t.TTY, t.Color, t.dumb, t.Width = decideTerm(d, env)
	if g, ok := out.(*guard); ok && t.Color {
		g.allowANSI() // lbctl's own colour passes the guard
	}
	t.r = lipgloss.NewRenderer(out)
	if t.Color {
		t.r.SetColorProfile(termenv.ANSI256)
	} else {
		t.r.SetColorProfile(termenv.Ascii)
	}
	t.r.SetHasDarkBackground(true) // never query the terminal: it can stall for seconds
	return t
}

// termFor builds the Term for a command from its global flags.
func termFor(cmd *cli.Command) *Term {
	return newTerm(cmd.Root().Writer, cmd.String("color"))
}

// Style returns a new style bound to this output.
func (t *Term) Style() lipgloss.Style { return t.r.NewStyle() }

// Unicode reports whether box drawing and block characters may be used:
// only on a terminal that is not TERM=dumb. A pipe gets plain ASCII, so
// logs and diffs stay readable anywhere.
func (t *Term) Unicode() bool { return t.TTY && !t.dumb }

// ellipsis is "…" on a terminal and "..." in a pipe.
// sep separates facts on one line: a middle dot on a terminal, a comma in
// a pipe (piped output is plain ASCII).
func (t *Term) sep() string {
	if t.Unicode() {
		return " · "
	}
	return ", "
}

func (t *Term) ellipsis() string {
	if t.Unicode() {
		return "…"
	}
	return "..."
}
