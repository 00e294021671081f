// Package commands is lbctl's command line wired together: the command
// tree (one package per command below), the global flags, and how an error
// becomes a message and an exit code.
package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/diff"
	"github.com/lbctl/lbctl/commands/explain"
	"github.com/lbctl/lbctl/commands/hash"
	"github.com/lbctl/lbctl/commands/help"
	"github.com/lbctl/lbctl/commands/lint"
	"github.com/lbctl/lbctl/commands/route"
	"github.com/lbctl/lbctl/commands/rules"
	"github.com/lbctl/lbctl/commands/session"
	"github.com/lbctl/lbctl/commands/subset"
	"github.com/lbctl/lbctl/commands/sweep"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/commands/test"

	"github.com/urfave/cli/v3"
)

// Main runs lbctl with args (args[0] is the program name) and returns the
// exit code. It never panics on bad input: a panic inside a command is
// reported as an internal error.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(args, stdin, stdout, stderr, cmdutil.ProcessEnv())
}

// Run is Main in env (the environment, clock and limits a run reads):
// tests give theirs instead of changing the process's.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, env cmdutil.Env) (code int) {
	cmdutil.FitAddressSpace()
	cmdutil.CollectLater()
	// Everything printed goes through a guard (guard.go).
	gout, gerr := term.NewGuard(stdout), term.NewGuard(stderr)
	stdout, stderr = gout, gerr
	// Last, after the messages below: what a guard held back (an
	// unfinished option reference) is written, not lost.
	defer func() { _, _ = gout.Flush(), gerr.Flush() }()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "lbctl: internal error: %v (please report this with the input that caused it)\n", r)
			code = ExitInput
		}
	}()
	app := New(stdin, stdout, stderr)
	cmdutil.SetEnv(app, env)
	err := app.Run(context.Background(), args)
	if err != nil {
		if msg := err.Error(); msg != "" {
			usage := cmdutil.ExitCode(err) == ExitUsage
			for _, line := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
				// A usage error is about the command line, never a
				// position in a file, whatever its value looks like.
				if !strings.HasPrefix(line, "lbctl: ") && (usage || !looksPositioned(line)) {
					line = "lbctl: " + line
				}
				fmt.Fprintln(stderr, line)
			}
		}
	}
	return cmdutil.ExitCode(err)
}

// looksPositioned reports whether a message already starts with a place
// (FILE: or FILE:LINE:COL:).
func looksPositioned(line string) bool {
	i := strings.Index(line, ": ")
	return i > 0 && (strings.Contains(line[:i], ".") || strings.Contains(line[:i], "/") || strings.HasPrefix(line, "<stdin>"))
}

// New builds the lbctl command tree.
func New(stdin io.Reader, stdout, stderr io.Writer) *cli.Command {
	root := &cli.Command{
		Name:      "lbctl",
		Usage:     "explain and lint Envoy load balancing, exactly as Envoy computes it",
		UsageText: "lbctl [global flags] COMMAND [flags] [FILE ...]",
		Version:   versionString(),
		// Help leaves the version to --version: commands/early answers
		// help before the build information (runtime/debug, initialised
		// after the protobuf packages) can be read.
		CustomRootCommandHelpTemplate: help.RootTemplate,
		Reader:                        stdin,
		Writer:                        stdout,
		ErrWriter:                     stderr,
		EnableShellCompletion:         true,
		Suggest:                       true,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				name := cmd.Args().First()
				return cmdutil.UsageErrorf("unknown command %q%s (see lbctl --help)", name, cmdutil.DidYouMean(name, cmdutil.CommandNames(cmd)))
			}
			return cli.ShowAppHelp(cmd)
		},
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Flags:          globalFlags(),
		Commands: []*cli.Command{
			explain.New(),
			lint.New(Version),
			rules.New(),
			hash.New(),
			subset.New(),
			sweep.New(),
			diff.New(),
			help.Completion(), help.Man(),
			session.New(),
			route.New(), test.New(),
		},
	}
	cmdutil.SetCompleter(root, help.Complete)
	setUsageErrors(root, "lbctl")
	cmdutil.CheckGlobalsEverywhere(root)
	help.UsePrinter()
	return root
}

// setUsageErrors makes every command report a usage error as one line on
// stderr with exit code 2, instead of printing its help to stdout.
func setUsageErrors(cmd *cli.Command, name string) {
	cmd.OnUsageError = func(_ context.Context, c *cli.Command, err error, _ bool) error {
		return cmdutil.UsageErrorf("%s", usageMessage(c, err, name))
	}
	for _, sub := range cmd.Commands {
		setUsageErrors(sub, name+" "+sub.Name)
	}
}

func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "text", Usage: "output format: text, json or yaml (sweep: also csv; diff: also markdown, github)",
			Validator: cmdutil.OneOf("output", "text", "json", "yaml", "csv", "markdown", "github")},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour: auto, always or never (auto: only on a terminal, never with NO_COLOR)",
			Validator: cmdutil.OneOf("color", "auto", "always", "never")},
		&cli.StringFlag{Name: "semantics", Value: "envoy", Usage: "whose behaviour to model: envoy, grpc (proxyless gRPC) or both",
			Validator: cmdutil.OneOf("semantics", "envoy", "grpc", "both")},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no warnings on standard error (errors still)"},
		&cli.BoolFlag{Name: "verbose", Usage: "list every warning (and every row where output is summarised)"},
		cmdutil.MaxInputFlag(),
		&cli.BoolFlag{Name: "skip-non-envoy", Usage: "skip a named file that holds no Envoy config, as a file found in a directory is (default: an input error)"},
	}
}
