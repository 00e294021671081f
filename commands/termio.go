package commands

import (
	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/term"
)

// termFor builds the command's terminal from its global flags.
func termFor(cmd *cli.Command) *term.IO {
	return term.New(cmd.Root().Writer, cmd.String("color"), env)
}

// guardSecrets registers the secret values of cfgs with the command's
// output guards (stdout and stderr): all at once, as each registration
// rebuilds the guard's replacer.
func guardSecrets(cmd *cli.Command, cfgs ...*config.Config) {
	var secrets []string
	for _, cfg := range cfgs {
		if cfg != nil && cfg.Sources != nil {
			secrets = append(secrets, cfg.Sources.Secrets()...)
		}
	}
	term.Secrets(secrets, cmd.Root().Writer, cmd.Root().ErrWriter)
}
