package term

import (
	"fmt"
	"io"
	"time"
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

// NewProgress is the progress line for label on w (stderr): drawn only
// when w is a terminal, TERM is not dumb and quiet is false.
func NewProgress(w io.Writer, label string, quiet bool, getenv func(string) string) *Progress {
	return &Progress{w: w, label: label, on: !quiet && IsTerminal(w) && getenv("TERM") != "dumb"}
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
