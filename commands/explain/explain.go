// Package explain is `lbctl explain`: where traffic goes, priority loads,
// panic, localities, per-host shares and failure budgets.
package explain

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/fixtures"
	"github.com/lbctl/lbctl/lbmodel"
)

// New is the explain command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "explain",
		Usage:     "show where traffic goes: priority loads, panic, aggregate tiers, localities and per-host shares",
		ArgsUsage: "[FILE ...]",
		Description: `Computes, exactly as Envoy does, each cluster's priority loads, panic state,
aggregate cluster split, locality shares and per-host traffic shares.
With no FILE (and nothing on standard input) it explains the built-in example.
With --admin URL (or --csds ADDR), --watch DURATION fetches again every
DURATION and prints what changed since the last fetch, until Ctrl-C.

Examples:
  lbctl explain fixtures/aggregate.yaml
  lbctl explain fixtures/aggregate.yaml --cluster aggregate_cluster -o json
  lbctl explain fixtures/aggregate.yaml --set-health primary/0=50
  lbctl explain fixtures/priority-two-levels.yaml --all

Text output of more than 10 clusters (or with --overview) is an overview:
one row per cluster, those needing attention first; --details prints every
cluster in full. --cluster takes names or glob patterns (path.Match: * ? [..],
'outbound|*|reviews*').`,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "cluster", Aliases: []string{"c"}, Usage: "explain only this cluster (repeatable)"},
			&cli.StringFlag{Name: "local-cluster", Usage: "the local cluster for zone-aware routing (default: cluster_manager.local_cluster_name)"},
			&cli.StringFlag{Name: "zone", Usage: "this Envoy's locality REGION/ZONE[/SUB_ZONE] (default: the bootstrap's node.locality)"},
			&cli.StringSliceFlag{Name: "active-requests", Usage: "ADDRESS=N active requests on a host, for least request (repeatable)"},
			&cli.StringSliceFlag{Name: "host-age", Usage: "what-if: ADDRESS=DURATION since the host became healthy, for slow start (repeatable; e.g. 10.0.0.1:80=30s)"},
			&cli.StringSliceFlag{Name: "host-weight", Usage: "what-if: ADDRESS=W a client-side WRR weight as if reported by ORCA (repeatable)"},
			&cli.StringSliceFlag{Name: "set-health", Usage: "what-if: CLUSTER[/PRIORITY]=PERCENT or =HEALTHY/TOTAL makes that share of hosts healthy (repeatable)"},
			&cli.BoolFlag{Name: "all", Usage: "list every host (text output shows the top 10 by default)"},
			&cli.BoolFlag{Name: "overview", Usage: "text output: one row per cluster, those needing attention first (the default above 10 clusters without --cluster)"},
			&cli.BoolFlag{Name: "details", Usage: "text output: every cluster's full block, however many clusters"},
			cmdutil.NoPagerFlag(),
			budgetOrderFlag(),
			cmdutil.KindFlag(),
		}, append(grpcFlags(), append(cmdutil.LiveFlags(), observeFlag(), watchFlag())...)...),
		ShellComplete: cmdutil.Complete,
		Action:        runExplain,
	}, cmdutil.Support{Output: []string{"json", "yaml"}, Color: true, Semantics: []string{"grpc", "both"}})
}

func runExplain(ctx context.Context, cmd *cli.Command) error {
	files := cmd.Args().Slice()
	opt, err := explainOptions(cmd)
	if err != nil {
		return err
	}
	if cmd.Duration("observe") > 0 && (cmd.String("admin") == "" || cmd.String("semantics") != "envoy") {
		return cmdutil.UsageErrorf("--observe needs --admin URL (it reads the running Envoy's counters) and Envoy semantics")
	}
	s := cmd.String("semantics")
	if cmd.String("csds") != "" && !cmd.IsSet("semantics") {
		s = "grpc" // a CSDS answer is a gRPC client's view
	}
	if err := checkWatch(cmd, s); err != nil {
		return err
	}
	var cfg *config.Config
	if len(files) == 0 && !cmdutil.StdinHasData(cmd) && !cmdutil.Live(cmd) {
		fmt.Fprintln(cmd.Root().ErrWriter, "lbctl: no FILE given: explaining the built-in example ("+fixtures.ExampleName+"); run `lbctl explain FILE` for your own config")
		cfg, err = config.LoadBytes(fixtures.ExampleName, fixtures.Example, "")
		if err != nil {
			return cmdutil.InputError(err)
		}
	} else {
		if len(files) == 0 && !cmdutil.Live(cmd) {
			files = []string{"-"}
		}
		if cfg, err = cmdutil.LoadInputs(cmd, files); err != nil {
			return err
		}
	}
	cmdutil.PrintWarnings(cmd, cfg)
	if err := nothingToExplain(cfg); err != nil {
		return err
	}
	clusters, err := cmdutil.SelectClusters(cfg, cmd.StringSlice("cluster"))
	if err != nil {
		return err
	}
	if err := cmdutil.CheckWhatIf(cfg, opt); err != nil {
		return err
	}
	if cmd.Duration("watch") > 0 {
		return runExplainWatch(ctx, cmd, cfg, clusters, opt, s)
	}
	if s != "envoy" {
		return runExplainGRPC(cmd, cfg, clusters, opt, s)
	}
	report, rejected, err := explain.Partial(cfg, clusters, opt)
	if err != nil {
		return cmdutil.InputError(err)
	}
	if len(rejected) > 0 {
		// Still an input error (exit 3); the text overview first lists
		// the rejected clusters among the others (issue 30).
		if cmd.String("output") == "text" && cmd.Duration("observe") == 0 && wantOverview(cmd, len(clusters)) {
			if err := cmdutil.WriteOutput(cmd, report, func(t *term.IO) { renderOverview(t, cfg, report, rejected) }); err != nil {
				return err
			}
		}
		return cmdutil.InputError(explain.JoinRejected(rejected))
	}
	if w := cmd.Duration("observe"); w > 0 {
		return runObserve(cmd, cfg, report, w)
	}
	return cmdutil.WriteOutput(cmd, report, func(t *term.IO) {
		if wantOverview(cmd, len(report.Clusters)) {
			renderOverview(t, cfg, report, nil)
			return
		}
		renderExplain(t, report, cmd.Bool("all"))
	})
}

// wantOverview: --overview, or more than overviewOver clusters and neither
// --cluster nor --details (issue 30).
func wantOverview(cmd *cli.Command, clusters int) bool {
	if cmd.Bool("details") {
		return false
	}
	return cmd.Bool("overview") || clusters > overviewOver && len(cmd.StringSlice("cluster")) == 0
}

func explainOptions(cmd *cli.Command) (model.Options, error) {
	opt := model.Options{LocalCluster: cmd.String("local-cluster"), BudgetOrder: budgetOrder(cmd)}
	if z := cmd.String("zone"); z != "" {
		parts := strings.Split(z, "/")
		if len(parts) < 2 || len(parts) > 3 {
			return opt, cmdutil.UsageErrorf("--zone %q: expected REGION/ZONE or REGION/ZONE/SUB_ZONE", z)
		}
		l := lbmodel.Locality{Region: parts[0], Zone: parts[1]}
		if len(parts) == 3 {
			l.SubZone = parts[2]
		}
		opt.Zone = &l
	}
	for _, a := range cmd.StringSlice("active-requests") {
		i := strings.LastIndexByte(a, '=')
		if i <= 0 {
			return opt, cmdutil.UsageErrorf("--active-requests %q: expected ADDRESS=N, e.g. 10.0.0.1:80=5", a)
		}
		addr := a[:i]
		v, err := strconv.ParseUint(a[i+1:], 10, 64)
		if err != nil {
			return opt, cmdutil.UsageErrorf("--active-requests %q: expected ADDRESS=N, e.g. 10.0.0.1:80=5", a)
		}
		if opt.ActiveRequests == nil {
			opt.ActiveRequests = map[string]uint64{}
		}
		opt.ActiveRequests[addr] = v
	}
	for _, a := range cmd.StringSlice("host-age") {
		addr, v, ok := strings.Cut(a, "=")
		d, err := time.ParseDuration(v)
		if !ok || addr == "" || err != nil || d < 0 {
			return opt, cmdutil.UsageErrorf("--host-age %q: expected ADDRESS=DURATION, e.g. 10.0.0.1:80=30s", a)
		}
		if opt.HostAges == nil {
			opt.HostAges = map[string]time.Duration{}
		}
		opt.HostAges[addr] = d
	}
	for _, a := range cmd.StringSlice("host-weight") {
		i := strings.LastIndexByte(a, '=')
		w, err := strconv.ParseUint(a[i+1:], 10, 32)
		if i <= 0 || err != nil {
			return opt, cmdutil.UsageErrorf("--host-weight %q: expected ADDRESS=W, e.g. 10.0.0.1:80=10", a)
		}
		if opt.HostWeights == nil {
			opt.HostWeights = map[string]uint32{}
		}
		opt.HostWeights[a[:i]] = uint32(w)
	}
	for _, s := range cmd.StringSlice("set-health") {
		o, err := model.ParseHealthOverride(s)
		if err != nil {
			return opt, cmdutil.UsageErrorf("%v", err)
		}
		opt.SetHealth = append(opt.SetHealth, o)
	}
	return opt, nil
}
