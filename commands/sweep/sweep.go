// Package sweep is `lbctl sweep`: a cluster's traffic as health falls,
// as text, a chart, CSV or SVG.
package sweep

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/sweep"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lbmodel/failure"

	"github.com/urfave/cli/v3"
	"go.yaml.in/yaml/v3"
)

// New is the sweep command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "sweep",
		Usage:     "step a level's health from 100% to 0% and show where traffic goes at each step",
		ArgsUsage: "[FILE ...]",
		Description: `Steps the health of one level (a priority, or a child of an aggregate cluster)
from every host healthy to none, all else unchanged, and computes at each step
the load of every priority (or child cluster), the panic flags and, with
--hosts, each host's share. As with --set-health, the first hosts in file
order are the healthy ones. --grid varies two levels together. With --admin
URL the cluster and the health of the levels not varied are a running
Envoy's (its /config_dump?include_eds and /clusters).

Output: a table and a stacked bar chart (text), -o csv, -o json or -o yaml;
--svg FILE also writes the chart as a standalone SVG.

Examples:
  lbctl sweep fixtures/priority-two-levels.yaml --cluster backend
  lbctl sweep fixtures/priority-two-levels.yaml --cluster backend --step 10 -o csv
  lbctl sweep fixtures/priority-two-levels.yaml --cluster backend --grid 0,1 --step 25
  lbctl sweep fixtures/aggregate.yaml --cluster aggregate_cluster --child primary --priority 0
  lbctl sweep fixtures/sweep/priority-100.yaml --cluster backend --set-health backend/1=40 --svg docs/sweep-total-panic.svg`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "cluster", Aliases: []string{"c"}, Usage: "the cluster (required)"},
			&cli.StringFlag{Name: "priority", Aliases: []string{"p"}, Usage: "the priority to vary (default: P0; of an aggregate's child: all its hosts)"},
			&cli.StringFlag{Name: "child", Usage: "aggregate clusters: the child cluster to vary (default: the first)"},
			&cli.FloatFlag{Name: "step", Usage: "percent of health between rows (default: every host count)"},
			&cli.StringFlag{Name: "grid", Usage: "vary two levels: P,Q (priorities), or CHILD[/P],CHILD[/P] for an aggregate"},
			&cli.BoolFlag{Name: "hosts", Usage: "add each host's share of traffic to every row"},
			&cli.StringFlag{Name: "svg", Usage: "write the chart as an SVG file"},
			&cli.StringSliceFlag{Name: "set-health", Usage: "what-if for the levels not varied: CLUSTER[/PRIORITY]=PERCENT or =HEALTHY/TOTAL (repeatable)"},
			cmdutil.KindFlag(),
		}, cmdutil.AdminFlags()...),
		ShellComplete: cmdutil.Complete,
		Action:        runSweep,
	}, cmdutil.Support{Output: []string{"json", "yaml", "csv"}, Color: true})
}

func sweepOptions(cmd *cli.Command) (sweep.Options, error) {
	opt := sweep.Options{Priority: -1, Child: cmd.String("child"), Step: cmd.Float("step"), Hosts: cmd.Bool("hosts")}
	if p := cmd.String("priority"); p != "" {
		v, err := sweep.ParsePriority(p)
		if err != nil {
			return opt, cmdutil.UsageErrorf("--priority: %v", err)
		}
		opt.Priority = v
	}
	if g := cmd.String("grid"); g != "" {
		opt.Grid = strings.Split(g, ",")
		if len(opt.Grid) != 2 || cmd.String("priority") != "" || opt.Child != "" {
			return opt, cmdutil.UsageErrorf("--grid %q: expected two levels, e.g. --grid 0,1, and no --priority or --child", g)
		}
		if cmd.String("svg") != "" {
			return opt, cmdutil.UsageErrorf("--svg draws a one-level sweep; it cannot be combined with --grid")
		}
	}
	for _, s := range cmd.StringSlice("set-health") {
		o, err := model.ParseHealthOverride(s)
		if err != nil {
			return opt, cmdutil.UsageErrorf("%v", err)
		}
		opt.Model.SetHealth = append(opt.Model.SetHealth, o)
	}
	return opt, nil
}

func runSweep(ctx context.Context, cmd *cli.Command) error {
	name := cmd.String("cluster")
	if name == "" {
		return cmdutil.UsageErrorf("sweep: --cluster NAME is required")
	}
	opt, err := sweepOptions(cmd)
	if err != nil {
		return err
	}
	cfg, cl, err := cmdutil.LoadCluster(cmd, name)
	if err != nil {
		return err
	}
	if err := cmdutil.CheckWhatIf(cfg, opt.Model); err != nil {
		return err
	}
	s, err := sweep.Build(cfg, cl, opt)
	var ue *model.UsageError
	switch {
	case errors.As(err, &ue):
		return cmdutil.UsageErrorf("%v", err)
	case err != nil:
		return cmdutil.InputError(err)
	}
	stepNote(cmd, s, opt.Step)
	if path := cmd.String("svg"); path != "" {
		if err := os.WriteFile(path, []byte(SVG(s)), 0o644); err != nil {
			return cmdutil.InputError(err)
		}
	}
	if cmd.String("output") == "csv" {
		w := csv.NewWriter(cmd.Root().Writer)
		if err := w.WriteAll(s.CSV()); err != nil {
			return cmdutil.InputError(err)
		}
		return nil
	}
	if cmd.String("output") == "yaml" {
		// lbmodel's sweep types spell the contract's names in JSON only;
		// this path skips writeOutput, which makes nil lists [] for JSON.
		encode.EmptySlices(&s)
		n, err := yamlFromJSON(s)
		if err != nil {
			return cmdutil.InputError(err)
		}
		return encode.YAML(cmd.Root().Writer, n)
	}
	return cmdutil.WriteOutput(cmd, &s, func(t *term.IO) { renderSweep(t, s) })
}

// yamlFromJSON is v's JSON form as a YAML node, keys in JSON order.
func yamlFromJSON(v any) (*yaml.Node, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return nil, err
	}
	var plain func(*yaml.Node)
	plain = func(n *yaml.Node) {
		n.Style = 0
		for _, c := range n.Content {
			plain(c)
		}
	}
	plain(&n)
	return &n, nil
}

// stepNote says once on stderr when --step is finer than one host of a
// swept level: every host count is shown instead (lbmodel's stepCounts).
func stepNote(cmd *cli.Command, s failure.Sweep, step float64) {
	if step <= 0 || len(s.Rows) == 0 {
		return
	}
	for _, st := range s.Rows[0].Steps {
		if step < 100/float64(st.Total) {
			fmt.Fprintf(cmd.Root().ErrWriter, "lbctl: --step %s is less than one host of %s (%d hosts): every host count is shown\n",
				strconv.FormatFloat(step, 'g', -1, 64), cmdutil.Name(st.Key), st.Total)
			return
		}
	}
}
