package cmdutil

import (
	"context"

	"github.com/urfave/cli/v3"
)

const completerKey = "lbctl.complete"

// SetCompleter installs the root's completion engine, which commands
// reach through Complete without importing the root.
func SetCompleter(root *cli.Command, f func(context.Context, *cli.Command)) {
	if root.Metadata == nil {
		root.Metadata = map[string]any{}
	}
	root.Metadata[completerKey] = f
}

// Complete answers urfave/cli's completion request for cmd with the
// root's engine (flags, flag values, cluster names): a command's
// ShellComplete.
func Complete(ctx context.Context, cmd *cli.Command) {
	if f, ok := cmd.Root().Metadata[completerKey].(func(context.Context, *cli.Command)); ok {
		f(ctx, cmd)
	}
}
