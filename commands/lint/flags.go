package lint

import (
	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/lint"
)

// lintFormat is lint's output format: --format, or the global -o json
// (which means --format json). The two given and different is a usage
// error (checkLintGlobals).
func lintFormat(cmd *cli.Command) string {
	if o := cmd.String("output"); o != "text" && !cmd.IsSet("format") {
		return o
	}
	return cmd.String("format")
}

// lintTarget is lint's --target, or the global --semantics (the same
// values: envoy, grpc, both) when --target is not given.
func lintTarget(cmd *cli.Command) string {
	if !cmd.IsSet("target") && cmd.IsSet("semantics") {
		return cmd.String("semantics")
	}
	return cmd.String("target")
}

// checkLintGlobals rejects global flags that contradict lint's own.
func checkLintGlobals(cmd *cli.Command) error {
	if o, f := cmd.String("output"), cmd.String("format"); o != "text" && cmd.IsSet("format") && o != f {
		return cmdutil.UsageErrorf("-o %s and --format %s disagree: give one of them", o, f)
	}
	if s, t := cmd.String("semantics"), cmd.String("target"); cmd.IsSet("semantics") && cmd.IsSet("target") && s != t {
		return cmdutil.UsageErrorf("--semantics %s and --target %s disagree: give one of them", s, t)
	}
	return nil
}

// writeLint writes the findings in lint's format through the command's
// Term, so --color and NO_COLOR apply to the text format.
func writeLint(cmd *cli.Command, fs []lint.Finding, src *config.Sources, version string) error {
	return writeFindings(cmdutil.Term(cmd), lintFormat(cmd), fs, src, version)
}
