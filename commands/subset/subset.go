// Package subset is `lbctl subset`: which subset a request selects and
// its hosts.
package subset

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/subset"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"

	"encoding/json"
	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/lbmodel"
)

// New is the subset command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "subset",
		Usage:     "show a cluster's subsets and which hosts a request's metadata_match selects",
		ArgsUsage: "[FILE ...]",
		Description: `Builds the cluster's subsets exactly as Envoy's subset load balancer does, and
follows a request's match criteria through subset lookup and the fallback
policies to the hosts it is balanced over.

Criteria come from --match KEY=VALUE (VALUE is a string: version=1.0 is the
string "1.0"; KEY:=JSON gives a typed value, e.g. replicas:=3 is the number 3,
canary:=true a bool), or from a route's metadata_match (--route NAME, each weighted
cluster reaching the cluster merged over the route's criteria); with --route,
--match is the request's dynamic metadata, merged over both.

Examples:
  lbctl subset fixtures/subset/seed-cluster.yaml --cluster cluster-name --match stage=canary
  lbctl subset fixtures/subset --cluster cluster-name --route canary-split -o json`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "cluster", Aliases: []string{"c"}, Usage: "the cluster (required when the input holds more than one)"},
			&cli.StringSliceFlag{Name: "match", Aliases: []string{"m"}, Usage: "KEY=VALUE criterion, VALUE a string; KEY:=JSON for a typed value (repeatable)"},
			&cli.StringFlag{Name: "route", Usage: "evaluate this route's metadata_match (route name in a RouteConfiguration)"},
			cmdutil.KindFlag(),
		}, cmdutil.LiveFlags()...),
		// A --match value may hold commas (a flow list or struct): never
		// split it.
		DisableSliceFlagSeparator: true,
		ShellComplete:             cmdutil.Complete,
		Action:                    runSubset,
	}, cmdutil.Support{Output: []string{"json", "yaml"}, Color: true})
}

func runSubset(ctx context.Context, cmd *cli.Command) error {
	name := cmd.String("cluster") // may be empty when the input holds one cluster
	match, err := parseMatches(cmd.StringSlice("match"))
	if err != nil {
		return err
	}
	cfg, cl, err := cmdutil.LoadCluster(cmd, name)
	if err != nil {
		return err
	}
	report, probs, err := subset.Build(cfg, cl, subset.SubsetOptions{Match: match, Route: cmd.String("route")})
	probs.Sort()
	for _, p := range probs {
		if p.Severity != config.SevError {
			fmt.Fprintf(cmd.Root().ErrWriter, "%s: %s: %s\n", p.Pos, p.Severity, p.Msg)
		}
	}
	if errs := probs.Errors(); len(errs) > 0 {
		return cmdutil.InputError(errs)
	}
	var re *subset.RouteError
	switch {
	case errors.As(err, &re), errors.Is(err, subset.ErrNoSubsetConfig):
		return cmdutil.UsageErrorf("%v", err)
	case err != nil:
		return cmdutil.UsageErrorf("%v", err)
	}
	return cmdutil.WriteOutput(cmd, report, func(t *term.IO) { renderSubset(t, report) })
}

// parseMatches reads --match flags. KEY=VALUE gives the string VALUE (one
// pair of surrounding quotes is dropped, so v='"1.0"' still works); KEY:=JSON
// gives a typed value (1.0 a number, true a bool, null null), as metadata
// values on the command line are strings unless typed explicitly.
func parseMatches(flags []string) (map[string]any, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	for _, f := range flags {
		i := strings.IndexByte(f, '=')
		typed := i > 0 && f[i-1] == ':'
		key, text := f[:max(0, i)], f[i+1:]
		if typed {
			key = f[:i-1]
		}
		if i <= 0 || key == "" {
			return nil, cmdutil.UsageErrorf("--match %q: expected KEY=VALUE or KEY:=JSON, e.g. stage=prod or replicas:=3", f)
		}
		if _, dup := out[key]; dup {
			return nil, cmdutil.UsageErrorf("--match %q: key %q is given twice", f, key)
		}
		var v any = unquote(text)
		if typed {
			if err := json.Unmarshal([]byte(text), &v); err != nil {
				return nil, cmdutil.UsageErrorf("--match %q: value is not JSON: %v", f, err)
			}
		}
		n, err := lbmodel.NormalizeValue(v)
		if err != nil {
			return nil, cmdutil.UsageErrorf("--match %q: %v", f, err)
		}
		out[key] = n
	}
	return out, nil
}

// unquote drops one pair of matching surrounding quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
