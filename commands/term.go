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
	r     *lipgloss.Renderer
}

// newTerm applies --color (auto|always|never), NO_COLOR, CLICOLOR_FORCE,
// TERM=dumb and COLUMNS, in that order of precedence.
func newTerm(out io.Writer, color string) *Term {
	// Off a terminal nothing limits the width (0), unless COLUMNS says so.
	t := &Term{Out: out}
	if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
		t.TTY = true
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			t.Width = w
		}
	}
	if c, err := strconv.Atoi(env("COLUMNS")); err == nil && c > 0 {
		t.Width = c
	}
	switch color {
	case "always":
		t.Color = true
	case "never":
		t.Color = false
	default:
		force := env("CLICOLOR_FORCE")
		switch {
		case env("NO_COLOR") != "":
			t.Color = false
		case force != "" && force != "0":
			t.Color = true
		default:
			t.Color = t.TTY && env("TERM") != "dumb"
		}
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

// Unicode reports whether box drawing and block characters may be used.
func (t *Term) Unicode() bool { return t.TTY && env("TERM") != "dumb" }
