package commands

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/urfave/cli/v3"
)

// Progress shows long work (a big dump, a sweep, a directory of many
// files) as one line on stderr, rewritten in place, and only when stderr
// is a terminal and --quiet is not given: piped or logged stderr never
// gets it.
type Progress struct {
	w     io.Writer
	on    bool
	label string
	last  time.Time
	shown bool
}

// progressFor returns the command's progress line for label.
func progressFor(cmd *cli.Command, label string) *Progress {
	w := cmd.Root().ErrWriter
	return &Progress{w: w, label: label, on: !cmd.Bool("quiet") && isTerminal(w) && env("TERM") != "dumb"}
}

func isTerminal(w io.Writer) bool {
	f, ok := unguard(w).(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// Update shows done of total (total 0: unknown), at most ten times a
// second.
func (p *Progress) Update(done, total int) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.shown = true
	if total > 0 {
		fmt.Fprintf(p.w, "\r\x1b[K%s %d/%d", p.label, done, total)
	} else {
		fmt.Fprintf(p.w, "\r\x1b[K%s %d", p.label, done)
	}
}

// Done clears the line, so the answer starts on a clean line.
func (p *Progress) Done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
