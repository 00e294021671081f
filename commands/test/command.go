package test

import (
	"context"
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/expect"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"

	"github.com/urfave/cli/v3"
)

// New is the test command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "test",
		Usage:     "check TESTS files of traffic assertions (lbctl's form or Envoy's router_check_tool form) against the configuration",
		ArgsUsage: "[FILE ...]",
		Description: `Reads each TESTS file and checks every test against the configuration: a
cluster test against explain's report of that cluster (under its given
what-ifs), a request test against the route Envoy's router picks. Exit 0 when
every test passes, 1 when one fails, 3 when a TESTS file names something the
configuration does not hold (at TESTS:LINE:COL, with the nearest name).

--init prints a TESTS file holding today's values, one test per cluster.

Examples:
  lbctl test fixtures/hash/ring-basic.yaml --tests fixtures/tests/ring.yaml
  lbctl test fixtures/hash/ring-basic.yaml --tests fixtures/tests/ring.yaml --format junit
  lbctl test --init fixtures/hash/ring-basic.yaml > tests.yaml`,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "tests", Aliases: []string{"t"}, Usage: "a TESTS file (repeatable)", TakesFile: true},
			&cli.StringFlag{Name: "format", Usage: "text, json, junit or github", Value: "text",
				Validator: cmdutil.OneOf("format", "text", "json", "junit", "github")},
			&cli.BoolFlag{Name: "init", Usage: "print a TESTS file holding today's values for every cluster"},
			cmdutil.KindFlag(),
		}, cmdutil.LiveFlags()...),
		ShellComplete: cmdutil.Complete,
		Action:        runTest,
	}, cmdutil.Support{})
}

func runTest(ctx context.Context, cmd *cli.Command) error {
	init := cmd.Bool("init")
	if init && len(cmd.StringSlice("tests")) > 0 {
		return cmdutil.UsageErrorf("test: --init prints a TESTS file; it takes no --tests")
	}
	if !init && len(cmd.StringSlice("tests")) == 0 {
		return cmdutil.UsageErrorf("test: --tests TESTS is required (or --init to write one)")
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
	opt := Options{
		Tests:   cmd.StringSlice("tests"),
		Format:  cmd.String("format"),
		Init:    init,
		Reports: Reports(cfg),
		Stdout:  cmd.Root().Writer,
		Stderr:  cmd.Root().ErrWriter,
	}
	if init {
		opt.InitClusters = expect.InitClusters(cfg, cfg.Clusters)
	}
	if code := Run(opt); code != ExitPass {
		return cmdutil.SilentExit(code)
	}
	return nil
}

// Reports are the reports tests read, over one loaded configuration:
// explain under the test's what-ifs, hashing's removal, and the route
// engine (as `lbctl route` wires it).
func Reports(cfg *config.Config) expect.Reports {
	return expect.Reports{
		Clusters: cfg.ClusterNames(),
		Cluster: func(name string, g expect.Given) (*traffic.Report, error) {
			cl := cfg.Cluster(name)
			if cl == nil {
				return nil, fmt.Errorf("no cluster %q", name)
			}
			opt, err := g.Options()
			if err != nil {
				return nil, err
			}
			if err := cmdutil.CheckWhatIf(cfg, opt); err != nil {
				return nil, err
			}
			return explain.Build(cfg, []*config.Cluster{cl}, opt)
		},
		Hosts:       func(name string) []string { return model.Addresses(cfg, cfg.Cluster(name)) },
		NestedHosts: func(name string) []string { return model.NestedAddresses(cfg, cfg.Cluster(name)) },
		Moved: func(name string, remove []string) (float64, error) {
			cl := cfg.Cluster(name)
			if cl == nil {
				return 0, fmt.Errorf("no cluster %q", name)
			}
			r, err := hashing.Build(cfg, cl, hashing.HashOptions{Remove: remove})
			if err != nil {
				return 0, err
			}
			if r.Moved == nil {
				return 0, fmt.Errorf("cluster %q: no key space moves (not a ring hash or Maglev cluster)", name)
			}
			return *r.Moved, nil
		},
		Request: func(r expect.Request, g expect.Given) (expect.RouteResult, error) {
			opt, err := g.Options()
			if err != nil {
				return expect.RouteResult{}, err
			}
			if err := cmdutil.CheckWhatIf(cfg, opt); err != nil {
				return expect.RouteResult{}, err
			}
			rep, err := route.Build(cfg, cmdutil.RouteFromExpect(r), route.Options{}, cmdutil.RouteBalancers(cfg, opt))
			if err != nil {
				return expect.RouteResult{}, err
			}
			return cmdutil.RouteResult(rep), nil
		},
	}
}
