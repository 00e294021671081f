package commands

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// Exit codes, the same for every command and output format (contract.md).
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
	ExitInput    = 3
)

// exitError carries an exit code; its message (possibly several lines of
// FILE:LINE:COL: message) goes to standard error.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

func inputError(err error) error {
	return &exitError{code: ExitInput, msg: err.Error()}
}

// silentExit ends with a code after the command printed what it had to say.
func silentExit(code int) error { return &exitError{code: code} }

func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	// Anything else comes from flag parsing in urfave/cli: a usage error.
	return ExitUsage
}

// didYouMean is " (did you mean X?)" when a candidate is close to s.
func didYouMean(s string, candidates []string) string {
	if c := parse.Closest(s, candidates); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}

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

// commandNames lists the visible subcommands of cmd.
func commandNames(cmd *cli.Command) []string {
	var out []string
	for _, c := range cmd.Commands {
		if !c.Hidden {
			out = append(out, c.Names()...)
		}
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
		return fmt.Sprintf("unknown flag %s for %s%s (see %s --help)", typed, name, didYouMean(typed, flagNames(cmd)), name)
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		msg = m[1] // our validator's message names the flag and value already
	}
	return fmt.Sprintf("%s (see %s --help)", msg, name)
}

var invalidValue = regexp.MustCompile(`^invalid value ".*" for flag -{1,2}\S+: (--\S+ .*)$`)
