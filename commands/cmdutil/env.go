package cmdutil

import (
	"os"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/urfave/cli/v3"
)

// Env is what a run takes from the process besides its arguments and
// streams. Main runs in ProcessEnv; tests give their own (a fixed
// environment, a clock, a limit) instead of swapping package variables.
type Env struct {
	// Getenv reads NO_COLOR, COLUMNS, GOGC, ...
	Getenv func(string) string
	// Now stamps --watch's fetches.
	Now func() time.Time
	// AddressSpaceFit is the input a run can read under an address-space
	// limit (ulimit -v), 0 when there is none.
	AddressSpaceFit func() int64
	// WatchRounds > 0 ends --watch after that many re-fetches (0: at
	// Ctrl-C).
	WatchRounds int
}

// ProcessEnv is the running process's: its environment, its clock, its
// address-space limit.
func ProcessEnv() Env {
	return Env{Getenv: os.Getenv, Now: time.Now, AddressSpaceFit: inputFittingAddressSpace}
}

const envKey = "lbctl.env"

// SetEnv gives the command tree under root env; a nil field is the
// process's.
func SetEnv(root *cli.Command, env Env) {
	p := ProcessEnv()
	if env.Getenv == nil {
		env.Getenv = p.Getenv
	}
	if env.Now == nil {
		env.Now = p.Now
	}
	if env.AddressSpaceFit == nil {
		env.AddressSpaceFit = p.AddressSpaceFit
	}
	if root.Metadata == nil {
		root.Metadata = map[string]any{}
	}
	root.Metadata[envKey] = env
}

// EnvOf is the Env of cmd's tree (ProcessEnv when none was set).
func EnvOf(cmd *cli.Command) Env {
	if cmd != nil {
		if e, ok := cmd.Root().Metadata[envKey].(Env); ok {
			return e
		}
	}
	return ProcessEnv()
}

// Getenv is the environment of cmd's tree.
func Getenv(cmd *cli.Command) func(string) string { return EnvOf(cmd).Getenv }

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
