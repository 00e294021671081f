package commands

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/commands/term"
)

// Every option analyze and lint name is spelled as a flag some command
// really declares, so a renamed flag cannot leave a stale reference.
func TestOptionSpellingsAreFlags(t *testing.T) {
	declared := map[string]bool{}
	var walk func(c *cli.Command)
	walk = func(c *cli.Command) {
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				declared["--"+n] = true
			}
		}
		for _, sub := range c.Commands {
			walk(sub)
		}
	}
	walk(New(strings.NewReader(""), io.Discard, io.Discard))
	for _, n := range option.All {
		if s := term.Spelling(n); !declared[s] {
			t.Errorf("option %s is spelled %s, which no command declares", n.ID(), s)
		}
	}
}
