package commands

import (
	"context"
	"slices"
	"strings"

	"github.com/lbctl/lbctl/commands/cmdutil"

	"github.com/urfave/cli/v3"
)

// support is what a command does with the global flags beyond their
// defaults: the -o formats it writes besides text, whether its text is
// coloured, and the --semantics it models besides envoy. A value it does
// not support is a usage error, never silently ignored.
type support struct {
	output    []string
	color     bool
	semantics []string
}

// globalSupport is keyed by top-level command name. A command missing
// from the table is not checked (new commands should add a row).
var globalSupport = map[string]support{
	"explain":    {output: []string{"json", "yaml"}, color: true, semantics: []string{"grpc", "both"}},
	"lint":       {output: []string{"json"}, color: true, semantics: []string{"grpc", "both"}}, // -o json = --format json; --semantics = --target
	"rules":      {output: []string{"json", "yaml"}, color: true},
	"hash":       {output: []string{"json", "yaml"}, color: true, semantics: []string{"grpc"}},
	"subset":     {output: []string{"json", "yaml"}, color: true},
	"session":    {output: []string{"json", "yaml"}, color: true, semantics: []string{"grpc"}}, // gRFC A75 is gRPC's
	"sweep":      {output: []string{"json", "yaml", "csv"}, color: true},
	"diff":       {output: []string{"json", "yaml", "markdown", "github"}, color: true, semantics: []string{"grpc", "both"}},
	"completion": {},
	"man":        {},
}

// checkGlobals rejects a global flag value the running command would
// otherwise ignore.
func checkGlobals(cmd *cli.Command) error {
	top := topCommand(cmd)
	s, ok := globalSupport[top]
	if !ok {
		return nil
	}
	if top == "lint" {
		if err := checkLintGlobals(cmd); err != nil {
			return err
		}
	}
	if o := cmd.String("output"); o != "text" && !slices.Contains(s.output, o) {
		more := ""
		if top == "lint" {
			more = " (and --format sarif or github)"
		}
		return cmdutil.UsageErrorf("-o %s: lbctl %s writes %s%s", o, top, orList(append([]string{"text"}, s.output...)), more)
	}
	if c := cmd.String("color"); c == "always" && !s.color {
		return cmdutil.UsageErrorf("--color always: lbctl %s writes no coloured output", top)
	}
	if m := cmd.String("semantics"); m != "envoy" && !slices.Contains(s.semantics, m) {
		if top == "session" {
			return cmdutil.UsageErrorf("--semantics %s: lbctl session models gRPC's override-host pick (gRFC A75) only; use --semantics grpc", m)
		}
		if m == "both" && slices.Contains(s.semantics, "grpc") {
			return cmdutil.UsageErrorf("--semantics both: lbctl %s models one at a time; run it once with --semantics envoy and once with grpc", top)
		}
		return cmdutil.UsageErrorf("--semantics %s: lbctl %s models Envoy only", m, top)
	}
	return nil
}

// checkGlobalsEverywhere makes every command with an action check the
// global flags first.
func checkGlobalsEverywhere(cmd *cli.Command) {
	for _, sub := range cmd.Commands {
		if act := sub.Action; act != nil {
			sub.Action = func(ctx context.Context, c *cli.Command) error {
				if err := checkGlobals(c); err != nil {
					return err
				}
				return act(ctx, c)
			}
		}
		checkGlobalsEverywhere(sub)
	}
}

// topCommand is the name of the first command under lbctl in cmd's line.
func topCommand(cmd *cli.Command) string {
	l := cmd.Lineage() // cmd, its parent, ..., the root
	if len(l) < 2 {
		return ""
	}
	return l[len(l)-2].Name
}

// orList writes "a, b or c".
func orList(vs []string) string {
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}
