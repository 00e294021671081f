package cmdutil

import (
	"os"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/urfave/cli/v3"
)

const getenvKey = "lbctl.getenv"

// SetGetenv gives the command tree under root the environment getenv
// reads (NO_COLOR, COLUMNS, GOGC, …): tests inject theirs here.
func SetGetenv(root *cli.Command, getenv func(string) string) {
	if root.Metadata == nil {
		root.Metadata = map[string]any{}
	}
	root.Metadata[getenvKey] = getenv
}

// Getenv is the environment of cmd's tree (the process's by default).
func Getenv(cmd *cli.Command) func(string) string {
	if cmd != nil {
		if g, ok := cmd.Root().Metadata[getenvKey].(func(string) string); ok {
			return g
		}
	}
	return os.Getenv
}

// Term is the command's standard output as a term.IO, by --color and the
// environment.
func Term(cmd *cli.Command) *term.IO {
	return term.New(cmd.Root().Writer, cmd.String("color"), Getenv(cmd))
}

// GuardSecrets registers the secret values of cfgs with the command's
// output guards (stdout and stderr): all at once, as each registration
// rebuilds the guard's replacer.
func GuardSecrets(cmd *cli.Command, cfgs ...*config.Config) {
	var secrets []string
	for _, cfg := range cfgs {
		if cfg != nil && cfg.Sources != nil {
			secrets = append(secrets, cfg.Sources.Secrets()...)
		}
	}
	term.Secrets(secrets, cmd.Root().Writer, cmd.Root().ErrWriter)
}
