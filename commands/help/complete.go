package help

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/quick"

	"github.com/urfave/cli/v3"
)

// Shell completion: quick.Complete answers the scripts' requests over the
// command tree (Tree); this side knows only the flag values:
// flagValues, keyed by flag name, then the "expected one of a, b, c"
// message of the flag's oneOf validator, then cluster names read from the
// FILE arguments on the line (config.QuickClusterNames: YAML only, never
// the full model, so a TAB stays fast).

// flagValues are the values of the flags that take one of a fixed set,
// keyed by flag name, so that any command defining such a flag completes
// its values.
var flagValues = map[string][]string{
	"output":    {"text", "json", "yaml"},
	"format":    {"text", "json", "sarif", "github"},
	"fail-on":   {"error", "warning", "info", "none"},
	"semantics": {"envoy", "grpc", "both"},
	"target":    {"envoy", "grpc", "both"},
	"color":     {"auto", "always", "never"},
	"kind":      config.Kinds,
	// COMMAND --FLAG: one command's values where they differ.
	"test --format": {"text", "json", "junit", "github"},
}

// valuesOf is flagValues for cmd's flag name.
func valuesOf(cmd, name string) []string {
	if v, ok := flagValues[cmd+" --"+name]; ok {
		return v
	}
	return flagValues[name]
}

// clusterFlags take a cluster name: their values are the clusters defined
// in the FILE arguments already typed.
var clusterFlags = map[string]bool{"cluster": true, "local-cluster": true}

// nameFlags take another name defined in the FILE arguments (route's).
var nameFlags = map[string]string{"route-config": "route-config", "listener": "listener", "authority": "authority"}

// Line answers a completion request (quick.Complete over the
// command tree): words are the arguments before the cursor (without the
// program name), cur the word being typed.
func Line(root *cli.Command, words []string, cur string) quick.Completion {
	c, _ := quick.Complete(Tree(root), words, cur, func(kind string, files []string) []string {
		if kind != "cluster" {
			return shellSafe(cmdutil.RouteNames(kind, files))
		}
		return shellSafe(config.QuickClusterNames(files))
	})
	return c
}

// shellSafe leaves out names with control characters: a shell would
// take a newline as the end of the candidate.
func shellSafe(names []string) []string {
	var out []string
	for _, v := range names {
		if config.Escape(v) == v {
			out = append(out, v)
		}
	}
	return out
}

// Tree is cmd's tree as quick.Complete reads it: commands,
// flags, whether a flag takes a value and which values (flagValues, then
// the "expected one of a, b, c" message of the flag's oneOf validator,
// then cluster names for clusterFlags).
func Tree(cmd *cli.Command) *quick.Cmd {
	q := &quick.Cmd{Name: cmd.Name, Aliases: cmd.Aliases, Usage: cmd.Usage, Hidden: cmd.Hidden, Files: acceptsFiles(cmd)}
	for _, f := range cmd.Flags {
		name := f.Names()[0]
		qf := quick.Flag{Names: f.Names(), Usage: flagUsage(f), TakesValue: takesValue(f), Local: isLocal(f),
			Hidden: !isVisible(f), Cluster: clusterFlags[name], Defined: nameFlags[name], Values: valuesOf(cmd.Name, name)}
		if qf.Values == nil && !qf.Cluster && qf.Defined == "" {
			qf.Values = validatorValues(f)
		}
		q.Flags = append(q.Flags, qf)
	}
	for _, sub := range cmd.Commands {
		q.Commands = append(q.Commands, Tree(sub))
	}
	return q
}

// validatorValues reads the allowed values of a string flag from the
// message of its oneOf validator ("... expected one of a, b, c"), so a
// flag defined with oneOf completes even without a flagValues entry.
func validatorValues(f cli.Flag) []string {
	sf, ok := f.(*cli.StringFlag)
	if !ok || sf.Validator == nil {
		return nil
	}
	err := sf.Validator("\x00")
	if err == nil {
		return nil
	}
	_, list, ok := strings.Cut(err.Error(), "expected one of ")
	if !ok {
		return nil
	}
	return strings.Split(list, ", ")
}

// acceptsFiles reports whether a command's positional arguments are files
// (its ArgsUsage names FILE).
func acceptsFiles(cmd *cli.Command) bool { return strings.Contains(cmd.ArgsUsage, "FILE") }

func takesValue(f cli.Flag) bool {
	d, ok := f.(cli.DocGenerationFlag)
	return ok && d.TakesValue()
}

func isLocal(f cli.Flag) bool {
	l, ok := f.(cli.LocalFlag)
	return ok && l.IsLocal()
}

func isVisible(f cli.Flag) bool {
	v, ok := f.(cli.VisibleFlag)
	return !ok || v.IsVisible()
}

func flagUsage(f cli.Flag) string {
	if d, ok := f.(cli.DocGenerationFlag); ok {
		return d.GetUsage()
	}
	return ""
}

// Complete answers urfave/cli's own completion requests (`lbctl
// explain … --generate-shell-completion`, the protocol of its built-in
// scripts) with the same engine, so they also offer cluster names and
// flag values. Any command may use it as its ShellComplete.
func Complete(_ context.Context, cmd *cli.Command) {
	lineage := cmd.Lineage() // cmd first, the root last
	chain := make([]*cli.Command, len(lineage))
	for i, c := range lineage {
		chain[len(lineage)-1-i] = c
	}
	words := make([]string, 0, len(chain)+cmd.Args().Len())
	for _, c := range chain[1:] {
		words = append(words, c.Name)
	}
	args := cmd.Args().Slice()
	cur := ""
	if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "-") && !definesFlag(chain, strings.TrimLeft(args[n-1], "-")) {
		cur, args = args[n-1], args[:n-1] // a flag being typed
	}
	words = append(words, args...)
	for _, cand := range Line(cmd.Root(), words, cur).Cands {
		fmt.Fprintln(cmd.Root().Writer, cand.Value)
	}
}

// definesFlag reports whether a flag called name is defined on the last
// command of chain or, unless local, on one of its ancestors.
func definesFlag(chain []*cli.Command, name string) bool {
	for i := len(chain) - 1; i >= 0; i-- {
		for _, f := range chain[i].Flags {
			if (i == len(chain)-1 || !isLocal(f)) && slices.Contains(f.Names(), name) {
				return true
			}
		}
	}
	return false
}
