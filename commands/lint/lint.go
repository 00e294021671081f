// Package lint is `lbctl lint`: the rule engine's findings as text, JSON,
// SARIF or GitHub annotations, with a baseline and --new-from-rev for
// adopting it on an existing repository.
package lint

import (
	"context"
	"os"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/cmdutil"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/lint"
)

// New is the lint command; version names lbctl in SARIF's tool.driver.
func New(version string) *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "lint",
		Usage:     "check load-balancing configuration for mistakes Envoy rejects or silently mis-handles",
		ArgsUsage: "[FILE ...]",
		Description: `Runs every lint rule (see lbctl rules) on the configuration and reports findings
as FILE:LINE:COL: SEVERITY ID message [name], with the source line and a hint.

Exit codes: 0 no finding at or above --fail-on, 1 findings, 2 usage error,
3 a file cannot be read or parsed (also reported as a finding).
Each bootstrap or admin config_dump is its own configuration; loose xDS
resources (clusters, endpoints, routes, listeners) in one directory form
one. Cross-resource rules (duplicates, references, aggregates) look inside
one configuration; --merge checks all inputs as one.
--strict also reports every unknown field, unknown extension type and v2
spelling one by one, including in admin dumps Envoy wrote.
Suppress one finding with a YAML comment on its line or the line above:
  # lbctl:ignore LB1203 reason
Defaults for --disable, --fail-on and --target can be set in a .lbctl.yaml
found in the working directory or a parent:
  disable: [LB1504]
  fail-on: warning

Examples:
  lbctl lint fixtures/locality/
  lbctl lint fixtures/lint/LB1203-bad.yaml --format sarif > lbctl.sarif
  lbctl lint fixtures/aggregate.yaml --fail-on none --disable panic-with-priorities
  lbctl lint --strict --fail-on none fixtures/inputs/strict-dump.json`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: text, json, sarif or github",
				Validator: cmdutil.OneOf("format", lintFormats...)},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at or above: error, warning, info or none",
				Validator: cmdutil.OneOf("fail-on", "error", "warning", "info", "none")},
			&cli.StringSliceFlag{Name: "disable", Usage: "do not run this rule (ID or name; repeatable)"},
			&cli.StringFlag{Name: "target", Value: "envoy", Usage: "data plane to judge for: envoy, grpc or both",
				Validator: cmdutil.OneOf("target", "envoy", "grpc", "both")},
			&cli.BoolFlag{Name: "merge", Usage: "check all inputs as one configuration (by default each bootstrap or config_dump is its own, and loose xDS resources form one per directory)"},
			&cli.BoolFlag{Name: "strict", Usage: "report every unknown field, unknown extension type and v2 spelling one by one, also in files Envoy wrote (proto validation); by default lint reports only what concerns load balancing"},
			cmdutil.KindFlag(),
		}, append(cmdutil.LiveFlags(), adoptionFlags()...)...),
		Action: func(ctx context.Context, cmd *cli.Command) error { return run(ctx, cmd, version) },
	}, cmdutil.Support{
		// -o json means --format json, --semantics means --target.
		Output: []string{"json"}, Color: true, Semantics: []string{"grpc", "both"},
		OutputMore: " (and --format sarif or github)", Check: checkLintGlobals,
	})
}

func run(_ context.Context, cmd *cli.Command, version string) error {
	opts, failOn, err := lintOptions(cmd)
	if err != nil {
		return err
	}
	files := cmd.Args().Slice()
	live, err := cmdutil.LiveInputs(cmd)
	if err != nil {
		return err
	}
	if len(files) == 0 && live == nil {
		if !cmdutil.StdinHasData(cmd) {
			return cmdutil.UsageErrorf("lint needs a FILE or directory (or - for standard input)")
		}
		files = []string{"-"}
	}
	inputs := make([]config.Input, len(files))
	for i, f := range files {
		inputs[i] = config.Input{Path: f, Stdin: cmd.Root().Reader, SkipNonEnvoy: cmd.Bool("skip-non-envoy")}
	}
	// A running Envoy's config_dump and /clusters are one configuration.
	merge := cmd.Bool("merge") || live != nil
	cfgs, _ := config.LoadGroupsLimited(append(inputs, live...), cmd.String("kind"), merge, cmdutil.Limits(cmd))
	cmdutil.GuardSecrets(cmd, cfgs...)
	cmdutil.ReportSkipped(cmd, cfgs...)
	findings, err := adopt(cmd, lint.RunGroups(cfgs, opts))
	if err != nil {
		return err
	}
	if err := writeLint(cmd, findings, cfgs[0].Sources, version); err != nil {
		return cmdutil.InputError(err)
	}
	// A file that cannot be read or parsed is an input error (exit 3),
	// reported once: among the findings, or on stderr when no finding
	// carries it (its rule disabled or suppressed).
	reported := map[config.Pos]bool{}
	for _, f := range findings {
		reported[f.Pos] = true
	}
	var fatal []string
	refused := false
	for _, cfg := range cfgs {
		for _, p := range cfg.Problems {
			if p.Severity == config.SevError && (p.Code == config.CodeSyntax || p.Code == config.CodeIO || p.Code == config.CodeUnknownKind) {
				refused = true
				if !reported[p.Pos] {
					fatal = append(fatal, p.Error())
				}
			}
		}
	}
	if len(fatal) > 0 {
		return cmdutil.InputErrorf("%s", strings.Join(fatal, "\n"))
	}
	if refused {
		return cmdutil.SilentExit(cmdutil.ExitInput)
	}
	if lint.Fails(findings, failOn) {
		return cmdutil.SilentExit(cmdutil.ExitFindings)
	}
	return nil
}

// lintOptions merges the flags with the nearest .lbctl.yaml: flags given
// on the command line win; --disable adds to the file's list.
func lintOptions(cmd *cli.Command) (lint.Options, lint.Severity, error) {
	opts := lint.Options{Strict: cmd.Bool("strict")}
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	fc, err := lint.FindConfig(wd, cmdutil.Limits(cmd).MaxInput)
	if err != nil {
		return opts, 0, cmdutil.UsageErrorf("%v", err)
	}
	failOn, target := cmd.String("fail-on"), lintTarget(cmd)
	if cmd.String("csds") != "" && !cmd.IsSet("target") && !cmd.IsSet("semantics") {
		target = "grpc" // a CSDS answer is a proxyless gRPC client's state
	}
	if fc != nil {
		opts.Disable = append(opts.Disable, fc.Disable...)
		if fc.FailOn != "" && !cmd.IsSet("fail-on") {
			failOn = fc.FailOn
		}
		if fc.Target != "" && !cmd.IsSet("target") && !cmd.IsSet("semantics") {
			target = fc.Target
		}
	}
	for _, d := range cmd.StringSlice("disable") {
		for _, id := range strings.Split(d, ",") {
			if lint.Lookup(strings.TrimSpace(id)) == nil {
				return opts, 0, cmdutil.UsageErrorf("--disable %q: no such rule (see lbctl rules)", id)
			}
			opts.Disable = append(opts.Disable, strings.TrimSpace(id))
		}
	}
	sev, ok := lint.ParseSeverity(failOn)
	if !ok {
		return opts, 0, cmdutil.UsageErrorf("--fail-on %q: expected error, warning, info or none", failOn)
	}
	if opts.Targets, err = lint.ParseTargets(target); err != nil {
		return opts, 0, cmdutil.UsageErrorf("--target: %v", err)
	}
	return opts, sev, nil
}
