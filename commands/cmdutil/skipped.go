package cmdutil

import (
	"fmt"
	"io"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/urfave/cli/v3"
)

// ReportSkipped writes one line counting the inputs skipped for holding no
// Envoy config (--verbose names each; --quiet none).
func ReportSkipped(cmd *cli.Command, cfgs ...*config.Config) {
	if cmd.Bool("quiet") {
		return
	}
	var ps config.Problems
	for _, c := range cfgs {
		ps = append(ps, c.Problems...)
	}
	writeSkipped(cmd.Root().ErrWriter, ps, cmd.Bool("verbose"))
}

func writeSkipped(w io.Writer, ps config.Problems, verbose bool) {
	n, first := 0, ""
	for _, p := range ps {
		if p.Code != config.CodeSkipped {
			continue
		}
		if verbose {
			fmt.Fprintf(w, "lbctl: skipped %s: %s\n", config.Escape(p.Pos.File), p.Msg)
		}
		if n == 0 {
			first = config.Escape(p.Pos.File)
		}
		n++
	}
	switch {
	case n == 0 || verbose:
	case n == 1:
		fmt.Fprintf(w, "lbctl: skipped 1 file holding no Envoy config (%s)\n", first)
	default:
		fmt.Fprintf(w, "lbctl: skipped %d files holding no Envoy config (first %s); --verbose names each\n", n, first)
	}
}
