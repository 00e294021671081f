package commands

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/urfave/cli/v3"
)

// Exit codes, the same for every command and output format (contract.md).
const (
	ExitOK       = cmdutil.ExitOK
	ExitFindings = cmdutil.ExitFindings
	ExitUsage    = cmdutil.ExitUsage
	ExitInput    = cmdutil.ExitInput
)

// flagNames lists cmd's flags (its own and inherited) as typed: --name, -n.
func flagNames(cmd *cli.Command) []string {
	var out []string
	for c := cmd; c != nil; {
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				if len(n) == 1 {
					out = append(out, "-"+n)
				} else {
					out = append(out, "--"+n)
				}
			}
		}
		l := c.Lineage()
		if len(l) < 2 {
			break
		}
		c = l[1]
	}
	return out
}

// usageMessage rewrites urfave/cli's flag-parsing errors in lbctl's words
// and adds a suggestion for a mistyped flag.
func usageMessage(cmd *cli.Command, err error, name string) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		flag := strings.TrimLeft(rest, "-")
		typed := "--" + flag
		if len(flag) == 1 {
			typed = "-" + flag
		}
		return fmt.Sprintf("unknown flag %s for %s%s (see %s --help)", typed, name, cmdutil.DidYouMean(typed, flagNames(cmd)), name)
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		msg = m[1] // our validator's message names the flag and value already
	}
	return fmt.Sprintf("%s (see %s --help)", msg, name)
}

var invalidValue = regexp.MustCompile(`^invalid value ".*" for flag -{1,2}\S+: (--\S+ .*)$`)
