package term

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/lbctl/lbctl/analyze/option"
)

// A reference is as wide as its spelling, so text laid out around
// references (wrapped notes, table cells) lines up once spelled
// (lipgloss.Width measures with x/ansi's StringWidth).
func TestReferenceWidthIsSpellingWidth(t *testing.T) {
	for _, r := range []string{option.Open, option.Close} {
		if w := lipgloss.Width(r); w != 1 {
			t.Errorf("%q: %d columns, want 1", r, w)
		}
	}
	for _, n := range option.All {
		if got, want := lipgloss.Width(n.String()), len(Spelling(n)); got != want {
			t.Errorf("%s: reference %d columns, spelling %d", n.ID(), got, want)
		}
	}
}

// The guard spells references however the writes split them, redacts
// secrets after spelling, and leaves what is not a known reference
// escaped and visible.
func TestGuardSpells(t *testing.T) {
	ref := option.SetHealth.String()
	for _, c := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"whole", []string{"use " + ref + " x=1\n"}, "use --set-health x=1\n"},
		{"split in the id", []string{"use " + ref[:7], ref[7:] + " x\n"}, "use --set-health x\n"},
		{"split in Open", []string{"use \xee", "\x80\x80set-health\xee\x80\x81 x\n"}, "use --set-health x\n"},
		{"split in Close", []string{"use " + ref[:len(ref)-1], ref[len(ref)-1:]}, "use --set-health"},
		{"at the end", []string{"a ", ref}, "a --set-health"},
		{"unfinished at exit", []string{"a " + option.Open + "set"}, `a \ue000set`},
		{"unknown", []string{option.Open + "no-such" + option.Close + "\n"}, `\ue000no-such\ue001` + "\n"},
		{"too long to hold", []string{option.Open + string(bytes.Repeat([]byte("x"), 80)), "y"}, `\ue000` + string(bytes.Repeat([]byte("x"), 80)) + "y"},
		{"stray Close", []string{"x" + option.Close}, `x\ue001`},
		{"other private use", []string{"\ue010 \xee", "\x81\x80"}, "\ue010 \ue040"},
	} {
		var b bytes.Buffer
		g := &Guard{w: &b}
		for _, w := range c.writes {
			if n, err := g.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("%s: Write = %d, %v", c.name, n, err)
			}
		}
		if err := g.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s: %q, want %q", c.name, b.String(), c.want)
		}
	}
}

// Secrets are still redacted, spelled text around them or not.
func TestGuardSpellsAndRedacts(t *testing.T) {
	var b bytes.Buffer
	g := &Guard{w: &b}
	g.AddSecrets([]string{"hunter2"})
	fmt.Fprintf(g, "%s hunter2 (%s)\n", option.Route, option.MaxInput)
	if want := "--route [redacted] (--max-input)\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// Stopping the pager writes what the guard held to the pager, not later
// to the terminal.
func TestRetargetFlushes(t *testing.T) {
	var pager, tty bytes.Buffer
	g := &Guard{w: &pager}
	g.Write([]byte("x " + option.Open + "rou"))
	g.retarget(&tty)
	if pager.String() != `x \ue000rou` || tty.Len() != 0 {
		t.Errorf("pager %q, terminal %q", pager.String(), tty.String())
	}
}
