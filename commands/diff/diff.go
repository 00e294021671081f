// Package diff is `lbctl diff`: what a configuration change does to
// traffic, as text, JSON, YAML, Markdown or GitHub annotations; its old
// side from a file, a git revision or a running Envoy.
package diff

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/diff"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	lbgrpc "github.com/lbctl/lbctl/lbmodel/grpc"
	"github.com/lbctl/lbctl/lint"

	"github.com/urfave/cli/v3"
)

// New is the diff command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "diff",
		Usage:     "show what a config change does to traffic: shares, priorities, panic, hash key space, lint",
		ArgsUsage: "OLD NEW | --git REV[..REV] [PATH ...] | --admin URL NEW",
		Description: `Compares two configurations cluster by cluster, as Envoy computes them, and
prints only what changes: added and removed clusters, policy, priority loads and
panic, aggregate and locality loads, per-host shares, the key space a ring hash or
Maglev change remaps, subset settings, and lint findings new or fixed.
OLD and NEW are each a file, a directory or - (standard input). With --git REV the
old side is each PATH at REV (git show; nothing is checked out) and the new side
the working tree, or the second revision of --git A..B. Without PATH, the *.yaml,
*.yml and *.json files changed between the two sides are compared (all must be
Envoy config: give PATHs to choose). With --admin URL, the running
Envoy is the old side and the one argument the new side.

Examples:
  lbctl diff fixtures/diff/hosts/old.yaml fixtures/diff/hosts/new.yaml
  lbctl diff --git HEAD fixtures/diff/hosts/new.yaml
  lbctl diff --git HEAD fixtures/aggregate.yaml -o markdown
  lbctl diff fixtures/diff/hash/old.yaml fixtures/diff/hash/new.yaml --fail-on-remap 30 --fail-on error`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "git", Usage: "compare with git revision REV (or REV..REV) instead of an OLD file"},
			&cli.FloatFlag{Name: "fail-on-shift", Value: -1, Usage: "exit 1 when a host, locality, priority or aggregate share moves more than PERCENT points"},
			&cli.FloatFlag{Name: "fail-on-remap", Value: -1, Usage: "exit 1 when more than PERCENT of a cluster's hash key space maps to another host"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 1 on lint findings new in NEW: new-findings (any), or at or above error, warning or info (none: never)",
				Validator: cmdutil.OneOf("fail-on", "new-findings", "error", "warning", "info", "none")},
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when any cluster's traffic changes"},
			&cli.StringFlag{Name: "admin", Usage: "the old side is this Envoy admin URL's /config_dump?include_eds and /clusters?format=json"},
			&cli.BoolFlag{Name: "allow-remote", Usage: "allow --admin hosts other than loopback (127.0.0.0/8, ::1, localhost)"},
			&cli.DurationFlag{Name: "timeout", Value: 5 * time.Second, Usage: "bound each --admin request, body included"},
			cmdutil.KindFlag(),
		},
		Action: run,
	}, cmdutil.Support{Output: []string{"json", "yaml", "markdown", "github"}, Color: true, Semantics: []string{"grpc", "both"}})
}

// diffInputs are the OLD and NEW inputs of the command line, and how a
// configuration is named on each side for pairing (its first file, less
// the side's own prefix).
func diffInputs(cmd *cli.Command) (oin, nin []config.Input, key func(old bool, c *config.Config) string, err error) {
	args := cmd.Args().Slice()
	var oroot, nroot string
	key = func(old bool, c *config.Config) string {
		if len(c.Files) == 0 {
			return ""
		}
		f, root := c.Files[0], nroot
		if old {
			root = oroot
			if rev := cmd.String("git"); rev != "" {
				a, _, _ := strings.Cut(rev, "..")
				f = strings.TrimPrefix(f, a+":")
			}
		}
		if root != "" {
			if r, err := filepath.Rel(root, f); err == nil {
				return filepath.ToSlash(r)
			}
		}
		return filepath.ToSlash(f)
	}
	switch {
	case cmd.String("git") != "":
		if cmd.String("admin") != "" {
			return nil, nil, nil, cmdutil.UsageErrorf("--git and --admin: give one old side")
		}
		oin, nin, err = gitSides(cmd.String("git"), args)
		if err != nil {
			return nil, nil, nil, err
		}
	case cmd.String("admin") != "":
		if len(args) != 1 {
			return nil, nil, nil, cmdutil.UsageErrorf("diff --admin URL NEW: expected one NEW file or directory, got %d arguments", len(args))
		}
		oin, err = cmdutil.LiveInputs(cmd)
		if err != nil {
			return nil, nil, nil, err
		}
		nin = []config.Input{{Path: args[0], Stdin: cmd.Root().Reader}}
	default:
		if len(args) != 2 {
			return nil, nil, nil, cmdutil.UsageErrorf("diff: expected OLD and NEW (files, directories or -), got %d arguments; or use --git REV", len(args))
		}
		if args[0] == "-" && args[1] == "-" {
			return nil, nil, nil, cmdutil.UsageErrorf("diff: only one side can be standard input")
		}
		oin = []config.Input{{Path: args[0], Stdin: cmd.Root().Reader}}
		nin = []config.Input{{Path: args[1], Stdin: cmd.Root().Reader}}
		oroot, nroot = dirOrEmpty(args[0]), dirOrEmpty(args[1])
	}
	return oin, nin, key, nil
}

// dirOrEmpty is path when it is a directory.
func dirOrEmpty(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return path
	}
	return ""
}

// diffSide is one side loaded (grouped as lint groups inputs; an admin
// answer is one configuration), its clusters' inputs hashed and linted.
type diffSide struct {
	configs  []*config.Config
	sides    []*diff.Side
	findings []lint.Finding
	err      error
}

// loadSides does each side's work in its own goroutine: reading a
// 10,000-cluster dump is most of a diff's time.
func loadSides(cmd *cli.Command, oin, nin []config.Input, targets []lint.Target) (old, new diffSide) {
	one := func(in []config.Input, merge bool, out *diffSide) {
		cfgs, err := config.LoadGroups(in, cmd.String("kind"), merge)
		if err != nil {
			out.err = cmdutil.InputError(err)
			return
		}
		out.configs = cfgs
		for _, c := range cfgs {
			out.sides = append(out.sides, diff.Prepare(c))
		}
		out.findings = lint.RunGroups(cfgs, lint.Options{Targets: targets})
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); one(oin, cmd.String("admin") != "", &old) }()
	one(nin, false, &new)
	wg.Wait()
	return old, new
}

// emptySide is a configuration with nothing in it, for a side that lacks
// a configuration the other has.
func emptySide() *diff.Side {
	c, _ := config.Load(nil, "")
	return diff.Prepare(c)
}

func run(_ context.Context, cmd *cli.Command) error {
	for _, f := range []string{"fail-on-shift", "fail-on-remap"} {
		if v := cmd.Float(f); cmd.IsSet(f) && !(v >= 0 && v <= 100) { // NaN fails both
			return cmdutil.UsageErrorf("--%s %s: expected a percentage from 0 to 100", f, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	oin, nin, key, err := diffInputs(cmd)
	if err != nil {
		return err
	}
	if cmdutil.Getenv(cmd)("GOGC") == "" {
		// Both configurations stay live to the end: collecting while they
		// are read is mostly wasted (a quarter of a 10,000-cluster diff's
		// CPU at the default 100, for no smaller peak).
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	sem := cmd.String("semantics")
	var targets []lint.Target
	switch sem {
	case "grpc":
		targets = []lint.Target{lint.TargetGRPC}
	case "both":
		targets = []lint.Target{lint.TargetEnvoy, lint.TargetGRPC}
	}
	o, n := loadSides(cmd, oin, nin, targets)
	for _, s := range []diffSide{o, n} {
		if s.err != nil {
			return s.err
		}
	}
	for _, c := range append(append([]*config.Config{}, o.configs...), n.configs...) {
		cmdutil.PrintWarnings(cmd, c)
	}
	findings := diff.CompareFindings(o.configs, n.configs, o.findings, n.findings)
	groups := diff.PairGroups(o.sides, n.sides, key, emptySide)

	build := func(semantics string) (*diff.Report, error) {
		opt := diff.Options{Explain: envoyExplainer}
		if semantics == "grpc" {
			opt = diff.Options{Explain: grpcExplainer, Semantics: "grpc"}
		}
		r, err := diff.BuildGroups(groups, opt)
		if err != nil {
			return nil, cmdutil.InputError(err)
		}
		r.SetFindings(findings)
		return r, nil
	}
	var r *diff.Report
	if sem == "both" {
		if r, err = build("envoy"); err == nil {
			r.GRPC, err = build("grpc")
		}
	} else {
		r, err = build(sem)
	}
	if err != nil {
		return err
	}
	if err := writeDiff(cmd, r); err != nil {
		return err
	}
	if diffFails(cmd, r) {
		return cmdutil.SilentExit(cmdutil.ExitFindings)
	}
	return nil
}

func envoyExplainer(c *config.Config, cls []*config.Cluster) ([]traffic.ClusterReport, error) {
	return clustersOf(explain.Build(c, cls, model.Options{}))
}

func grpcExplainer(c *config.Config, cls []*config.Cluster) ([]traffic.ClusterReport, error) {
	return clustersOf(proxyless.Build(c, cls, proxyless.GRPCOptions{Impl: lbgrpc.CoreImpl}))
}

func clustersOf(r *traffic.Report, err error) ([]traffic.ClusterReport, error) {
	if err != nil {
		return nil, err
	}
	return r.Clusters, nil
}

// diffFails applies the thresholds (contract: diff): exit 1 when one given
// is exceeded, or with --exit-code on any traffic change.
func diffFails(cmd *cli.Command, r *diff.Report) bool {
	reports := []*diff.Report{r}
	if r.GRPC != nil {
		reports = append(reports, r.GRPC)
	}
	for _, x := range reports {
		if cmd.Bool("exit-code") && x.Changed {
			return true
		}
		if cmd.IsSet("fail-on-shift") && x.MaxShiftPoints() > cmd.Float("fail-on-shift") {
			return true
		}
		if cmd.IsSet("fail-on-remap") && 100*x.Summary.MaxMoved > cmd.Float("fail-on-remap") {
			return true
		}
	}
	switch cmd.String("fail-on") {
	case "new-findings":
		return len(r.Findings.New) > 0
	case "error", "warning", "info":
		min, _ := lint.ParseSeverity(cmd.String("fail-on"))
		for _, f := range r.Findings.New {
			if s, _ := lint.ParseSeverity(f.Severity); s >= min {
				return true
			}
		}
	}
	return false
}

// writeDiff writes r in the -o format. Markdown and GitHub annotations
// are text too: r's strings are escaped first, as writeOutput does for text.
func writeDiff(cmd *cli.Command, r *diff.Report) error {
	t := cmdutil.Term(cmd)
	switch cmd.String("output") {
	case "markdown", "github":
		encode.EscapeStrings(r)
	}
	switch cmd.String("output") {
	case "markdown":
		_, err := fmt.Fprint(t.Out, diffMarkdown(r))
		return err
	case "github":
		_, err := fmt.Fprint(t.Out, diffGitHub(r))
		return err
	}
	return cmdutil.WriteOutput(cmd, r, func(t *term.IO) { renderDiff(t, r, cmd.Bool("verbose")) })
}
