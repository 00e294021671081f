package explain

import (
	"errors"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"
	lbgrpc "github.com/lbctl/lbctl/lbmodel/grpc"
	"github.com/urfave/cli/v3"
)

// grpcFlags are the flags explain (and session) take for proxyless gRPC
// semantics.
func grpcFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "ready", Usage: "gRPC connectivity: CLUSTER[/PRIORITY]=yes|no (or READY, IDLE, CONNECTING, TRANSIENT_FAILURE); default READY when the priority has a usable endpoint (repeatable)"},
		&cli.StringFlag{Name: "grpc-impl", Value: "core", Usage: "gRPC implementation for --semantics grpc|both: core (C-core, gRFC A74+A75) or go (grpc-go, A74 only)",
			Validator: cmdutil.OneOf("grpc-impl", "core", "go")},
		&cli.BoolFlag{Name: "grpc-aggregate-backward-compat", Usage: "C-core with GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT=true: the aggregate's LB policy applies to every leaf"},
	}
}

// grpcOptions reads the gRPC flags on top of explain's options.
func grpcOptions(cmd *cli.Command, opt model.Options) (proxyless.GRPCOptions, error) {
	g := proxyless.GRPCOptions{Options: opt, BackwardCompat: cmd.Bool("grpc-aggregate-backward-compat")}
	if cmd.String("grpc-impl") == "go" {
		g.Impl = lbgrpc.GoImpl
	} else {
		g.Impl = lbgrpc.CoreImpl
	}
	for _, s := range cmd.StringSlice("ready") {
		o, err := proxyless.ParseReady(s)
		if err != nil {
			return g, cmdutil.UsageErrorf("%v", err)
		}
		g.Ready = append(g.Ready, o)
	}
	return g, nil
}

// runExplainGRPC is explain with --semantics grpc or both.
func runExplainGRPC(cmd *cli.Command, cfg *config.Config, clusters []*config.Cluster, opt model.Options, semantics string) error {
	g, err := grpcOptions(cmd, opt)
	if err != nil {
		return err
	}
	if semantics == "both" {
		env, err := explain.Build(cfg, clusters, opt)
		var rejected *model.RejectedError
		if errors.As(err, &rejected) {
			return cmdutil.InputError(err)
		}
		if err != nil {
			return cmdutil.UsageErrorf("%v", err)
		}
		both, err := proxyless.Both(cfg, clusters, env, g)
		if err != nil {
			return cmdutil.UsageErrorf("%v", err) // --ready problems
		}
		return cmdutil.WriteOutput(cmd, both, func(t *term.IO) { renderBoth(t, both, g.Impl, cmd.Bool("all")) })
	}
	report, err := proxyless.Build(cfg, clusters, g)
	if err != nil {
		return cmdutil.UsageErrorf("%v", err) // --ready problems
	}
	return cmdutil.WriteOutput(cmd, report, func(t *term.IO) { renderExplainGRPC(t, report, g.Impl, cmd.Bool("all")) })
}
