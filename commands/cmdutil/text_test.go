package cmdutil

import (
	"testing"

	"github.com/lbctl/lbctl/commands/term"
)

// TestNotes: a list stands after a blank line, one bullet each ('-' in a
// pipe, '•' on a terminal), wrapped under its text; inline notes follow
// their result directly; no notes write nothing.
func TestNotes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tty   int // terminal width, 0: a pipe
		notes []string
		form  NoteForm
		want  string
	}{
		{"list in a pipe", 0, []string{"one", "two"}, NoteList, "\n- one\n- two\n"},
		{"list on a terminal, wrapped", 40, []string{"the quick brown fox jumps over the lazy dog and keeps running far away"}, NoteList,
			"\n• the quick brown fox jumps over the\n  lazy dog and keeps running far away\n"},
		{"inline", 0, []string{"one", "two"}, NoteInline, "  note: one\n  note: two\n"},
		{"none", 0, nil, NoteList, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			io, out := term.Test()
			if tc.tty > 0 {
				io.SetTerminal(tc.tty)
			}
			Notes(io, tc.notes, tc.form)
			if out.String() != tc.want {
				t.Errorf("got %q, want %q", out.String(), tc.want)
			}
		})
	}
}
