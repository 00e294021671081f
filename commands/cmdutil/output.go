package cmdutil

import (
	"os"

	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/urfave/cli/v3"
)

// WriteOutput writes v in the -o format: JSON, YAML, or text through render.
func WriteOutput(cmd *cli.Command, v any, render func(t *term.IO)) error {
	t := Term(cmd)
	switch cmd.String("output") {
	case "json":
		return encode.JSONOutput(t.Out, v)
	case "yaml":
		encode.EmptySlices(v)
		return encode.YAML(t.Out, v)
	case "csv":
		return UsageErrorf("-o csv: only lbctl sweep writes CSV")
	}
	encode.EscapeStrings(v)
	if pages(cmd) {
		t.StartPager(Getenv(cmd), cmd.Bool("no-pager"))
		defer t.StopPager()
	}
	if !t.Unicode() {
		// Notes and decision paths are prose with a few typographic
		// characters; in a pipe they become ASCII like the tables.
		t = t.WithOut(encode.ASCII{W: t.Out})
	}
	render(t)
	return nil
}

// NoPagerFlag is --no-pager: a command declaring it has its text output
// paged on a terminal (term.IO.StartPager).
func NoPagerFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-pager", Usage: "text output on a terminal: do not page it through $LBCTL_PAGER, $PAGER or less -FRX"}
}

// pages reports whether cmd declares --no-pager.
func pages(cmd *cli.Command) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == "no-pager" {
				return true
			}
		}
	}
	return false
}

// StdinHasData reports whether standard input is a pipe or file rather
// than a terminal or nothing, so `lbctl explain` alone can fall back to the
// built-in example while `cat x.yaml | lbctl explain` reads the pipe.
func StdinHasData(cmd *cli.Command) bool {
	r := cmd.Root().Reader
	if l, ok := r.(interface{ Len() int }); ok {
		return l.Len() > 0
	}
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice == 0 && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular() && st.Size() > 0)
}
