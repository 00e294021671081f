// Package route is `lbctl route`: where one request goes, the route
// Envoy's router picks, its action and the hosts that receive it.
package route

import (
	"context"

	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/urfave/cli/v3"
)

// New is the route command.
func New() *cli.Command {
	flags := append(cmdutil.RouteRequestFlags(), cmdutil.WhatIfFlags()...)
	flags = append(flags, cmdutil.KindFlag())
	return cmdutil.Declare(&cli.Command{
		Name:      "route",
		Usage:     "show where one request goes: the route Envoy's router picks, its action and the hosts that receive it",
		ArgsUsage: "[FILE ...]",
		Description: `Routes one request as Envoy's router does: the virtual host by :authority,
then the first matching route of that virtual host, then the route's action
(a cluster, weighted clusters, cluster_header, a redirect or a direct
response), then each chosen cluster's load balancing (explain's model; a
RING_HASH or MAGLEV cluster whose hash policy hashes this request gives its
one host; metadata_match goes through the subset load balancer).

--authority defaults to the only domain when there is one virtual host.
--route-config or --listener picks among several route configurations
(required when they would answer differently). --random-value picks one of
weighted clusters as router_check_tool's random_value; without it the
clusters are shown with their shares. No route is an answer (exit 0).

Examples:
  lbctl route fixtures/route/lb.yaml --path /weighted
  lbctl route fixtures/route/lb.yaml --path /hashed --header x-user=alice -o json
  lbctl route fixtures/route/listeners.yaml --listener public --authority shop.example --path /`,
		Flags: flags,
		// A header or cookie value may hold commas: never split it.
		DisableSliceFlagSeparator: true,
		ShellComplete:             cmdutil.Complete,
		Action:                    runRoute,
	}, cmdutil.Support{Output: []string{"json", "yaml"}, Color: true})
}

func runRoute(ctx context.Context, cmd *cli.Command) error {
	req, opt, err := cmdutil.RouteRequest(cmd)
	if err != nil {
		return err
	}
	whatIf, err := cmdutil.WhatIfOptions(cmd)
	if err != nil {
		return err
	}
	files := cmd.Args().Slice()
	if len(files) == 0 && !cmdutil.Live(cmd) {
		files = []string{"-"}
	}
	cfg, err := cmdutil.LoadInputs(cmd, files)
	if err != nil {
		return err
	}
	cmdutil.PrintWarnings(cmd, cfg)
	if err := cmdutil.CheckWhatIf(cfg, whatIf); err != nil {
		return err
	}
	report, err := route.Build(cfg, req, opt, cmdutil.RouteBalancers(cfg, whatIf))
	if err != nil {
		return cmdutil.RouteError(err)
	}
	return cmdutil.WriteOutput(cmd, report, func(t *term.IO) { renderRoute(t, report) })
}
