// Package term owns lbctl's standard output and error: whether each is a
// terminal, its width, colour (a named palette, NO_COLOR, --color),
// progress, and the one Guard every printed byte passes (escapes, bidi
// and control characters, secret redaction). Nothing else under commands/
// writes to os.Stdout or os.Stderr.
package term

import (
	"io"
	"math"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/lbctl/lbctl/commands/term/size"
)

// IO is the one place that decides how output looks: whether stdout is a
// terminal, whether to use colour, and how wide tables may be.
type IO struct {
	Out io.Writer
	// TTY: stdout is a terminal. Off a terminal, output is plain ASCII.
	TTY   bool
	Color bool
	Width int // 0: unlimited
	// dumb: TERM=dumb, which can show neither colour nor box drawing.
	dumb bool
	r    *lipgloss.Renderer
	// pager is the running pager (StartPager); spawn starts one (nil:
	// the real process; term.Test's IO records instead).
	pager *pager
	spawn spawnFunc
}

// Decision is what Decide needs to know about the output and the
// environment; it keeps the decision pure so it can be tested as a table.
type Decision struct {
	TTY      bool   // the output is a terminal
	TTYWidth int    // its width in columns, 0 when unknown
	Color    string // --color: auto, always or never
}

// Decide applies, in this order of precedence: --color always|never;
// NO_COLOR (any non-empty value: no colour, https://no-color.org);
// CLICOLOR_FORCE (non-empty and not "0": colour even in a pipe); then
// colour only on a terminal whose TERM is not "dumb". COLUMNS, when a
// positive integer, overrides the measured width (also in a pipe, so
// `COLUMNS=80 lbctl … | less` is narrow); off a terminal the width is
// otherwise unlimited.
func Decide(d Decision, getenv func(string) string) (tty, color, dumb bool, width int) {
	tty, width = d.TTY, d.TTYWidth
	if !tty {
		width = 0
	}
	if c := size.Columns(getenv); c > 0 {
		width = c
	}
	dumb = getenv("TERM") == "dumb"
	switch d.Color {
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

// New measures out (is it a terminal, how wide) and applies Decide with
// --color's value and the environment getenv reads.
func New(out io.Writer, color string, getenv func(string) string) *IO {
	d := Decision{Color: color}
	f, _ := Unguard(out).(*os.File)
	d.TTY, d.TTYWidth = size.Terminal(f)
	t := &IO{Out: out}
	t.TTY, t.Color, t.dumb, t.Width = Decide(d, getenv)
	if g, ok := out.(*Guard); ok && t.Color {
		g.AllowANSI() // lbctl's own colour passes the guard
	}
	t.setRenderer()
	return t
}

// HelpWidth is the width help written to w may take (size.Help, which
// the early help answers with too).
func HelpWidth(w io.Writer, getenv func(string) string) int {
	f, _ := Unguard(w).(*os.File)
	return size.Help(f, getenv)
}

func (t *IO) setRenderer() {
	t.r = lipgloss.NewRenderer(t.Out)
	if t.Color {
		t.r.SetColorProfile(termenv.ANSI256)
	} else {
		t.r.SetColorProfile(termenv.Ascii)
	}
	t.r.SetHasDarkBackground(true) // never query the terminal: it can stall for seconds
}

// Sub is an IO writing to w with this one's TTY and colour decisions and
// the given width.
func (t *IO) Sub(w io.Writer, width int) *IO {
	s := &IO{Out: w, TTY: t.TTY, Color: t.Color, Width: width}
	s.setRenderer()
	return s
}

// WithOut is a copy of t writing to w (same decisions, same renderer).
func (t *IO) WithOut(w io.Writer) *IO {
	c := *t
	c.Out = w
	return &c
}

// Style returns a new style bound to this output.
func (t *IO) Style() lipgloss.Style { return t.r.NewStyle() }

// Paint is a style in one of the palette's colours.
func (t *IO) Paint(c Color) lipgloss.Style { return t.Style().Foreground(lipgloss.Color(c)) }

// Unicode reports whether box drawing and block characters may be used:
// only on a terminal that is not TERM=dumb. A pipe gets plain ASCII, so
// logs and diffs stay readable anywhere.
func (t *IO) Unicode() bool { return t.TTY && !t.dumb }

// Sep separates facts on one line: a middle dot on a terminal, a comma in
// a pipe (piped output is plain ASCII).
func (t *IO) Sep() string {
	if t.Unicode() {
		return " · "
	}
	return ", "
}

// Ellipsis is "…" on a terminal and "..." in a pipe.
func (t *IO) Ellipsis() string {
	if t.Unicode() {
		return "…"
	}
	return "..."
}

// Bar draws a share (0..1) as a bar of width cells: eighth blocks on a
// terminal, '#' and '.' in a pipe. Every table shares it, so a share
// looks the same in the priority, locality, cluster and host tables.
func (t *IO) Bar(share float64, width int) string {
	if math.IsNaN(share) || share < 0 {
		share = 0
	}
	share = min(share, 1)
	if width <= 0 {
		return ""
	}
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
	return t.Paint(Accent).Render(s)
}
