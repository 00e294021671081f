package cmdutil

import (
	"context"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
)

// Support is what a command does with the global flags beyond their
// defaults: the -o formats it writes besides text, whether its text is
// coloured, and the --semantics it models besides envoy. A value it does
// not support is a usage error, never silently ignored. Each command
// declares its own with Declare; a command without one is not checked.
type Support struct {
	Output    []string
	Color     bool
	Semantics []string
	// OutputMore follows the list of -o formats in the refusal (lint's
	// own --format values).
	OutputMore string
	// OnlySemantics, when set, is the whole refusal of another
	// --semantics (%s: the value given).
	OnlySemantics string
	// Check runs first: the command's own flags against the globals.
	Check func(*cli.Command) error
}

const supportKey = "lbctl.support"

// Declare records what cmd supports of the global flags and returns cmd.
func Declare(cmd *cli.Command, s Support) *cli.Command {
	if cmd.Metadata == nil {
		cmd.Metadata = map[string]any{}
	}
	cmd.Metadata[supportKey] = s
	return cmd
}

// SupportOf is what cmd declared, and whether it declared anything.
func SupportOf(cmd *cli.Command) (Support, bool) {
	s, ok := cmd.Metadata[supportKey].(Support)
	return s, ok
}

// CheckGlobals rejects a global flag value the running command would
// otherwise ignore, by what its top-level command declared.
func CheckGlobals(cmd *cli.Command) error {
	l := cmd.Lineage() // cmd, its parent, ..., the root
	if len(l) < 2 {
		return nil
	}
	top := l[len(l)-2]
	s, ok := SupportOf(top)
	if !ok {
		return nil
	}
	if s.Check != nil {
		if err := s.Check(cmd); err != nil {
			return err
		}
	}
	if o := cmd.String("output"); o != "text" && !slices.Contains(s.Output, o) {
		return UsageErrorf("-o %s: lbctl %s writes %s%s", o, top.Name, OrList(append([]string{"text"}, s.Output...)), s.OutputMore)
	}
	if c := cmd.String("color"); c == "always" && !s.Color {
		return UsageErrorf("--color always: lbctl %s writes no coloured output", top.Name)
	}
	if m := cmd.String("semantics"); m != "envoy" && !slices.Contains(s.Semantics, m) {
		if s.OnlySemantics != "" {
			return UsageErrorf(s.OnlySemantics, m)
		}
		if m == "both" && slices.Contains(s.Semantics, "grpc") {
			return UsageErrorf("--semantics both: lbctl %s models one at a time; run it once with --semantics envoy and once with grpc", top.Name)
		}
		return UsageErrorf("--semantics %s: lbctl %s models Envoy only", m, top.Name)
	}
	return nil
}

// CheckGlobalsEverywhere makes every command with an action check the
// global flags first.
func CheckGlobalsEverywhere(cmd *cli.Command) {
	for _, sub := range cmd.Commands {
		if act := sub.Action; act != nil {
			sub.Action = func(ctx context.Context, c *cli.Command) error {
				if err := CheckGlobals(c); err != nil {
					return err
				}
				return act(ctx, c)
			}
		}
		CheckGlobalsEverywhere(sub)
	}
}

// OrList writes "a, b or c".
func OrList(vs []string) string {
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// CommandNames lists the visible subcommands of cmd (and their aliases),
// the candidates of an unknown command's did-you-mean.
func CommandNames(cmd *cli.Command) []string {
	var out []string
	for _, c := range cmd.Commands {
		if !c.Hidden {
			out = append(out, c.Names()...)
		}
	}
	return out
}
