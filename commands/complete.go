package commands

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/analyze"
)

// completeClusters offers cluster names for --cluster, read from the FILE
// arguments already typed, without building the model; otherwise it falls
// back to urfave/cli's flag completion.
func completeClusters(ctx context.Context, cmd *cli.Command) {
	args := cmd.Args().Slice()
	if n := len(args); n > 0 {
		last := args[n-1]
		if last == "--cluster" || last == "-c" {
			for _, name := range analyze.QuickClusterNames(args[:n-1]) {
				fmt.Fprintln(cmd.Root().Writer, name)
			}
			return
		}
	}
	cli.DefaultCompleteWithFlags(ctx, cmd)
}
