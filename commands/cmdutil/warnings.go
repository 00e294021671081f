package cmdutil

import (
	"fmt"
	"io"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/urfave/cli/v3"
)

// warnGroupMin is the number of warnings of one kind from which they are
// counted on one line instead of listed (--verbose lists them all).
const warnGroupMin = 4

// warnWords says what a group of warnings of one code is, for the count.
var warnWords = map[string]string{
	config.CodeUnknownType:   "resources of unmodelled extension types skipped",
	config.CodeUnknownField:  "fields unknown to this build ignored outside load balancing",
	config.CodeLegacy:        "v2-era settings translated or ignored",
	config.CodeReference:     "references to resources not in the input",
	config.CodeDuplicateName: "resources repeating a name",
}

// ReportWarnings writes the load warnings to stderr: nothing with
// --quiet, every one with --verbose, otherwise each kind that occurs
// fewer than warnGroupMin times in full and the others as one counted
// line, so the answer is not buried under hundreds of lines.
func ReportWarnings(cmd *cli.Command, cfg *config.Config) {
	if cmd.Bool("quiet") {
		return
	}
	WriteWarnings(cmd.Root().ErrWriter, cfg.Problems, cmd.Bool("verbose"))
}

func WriteWarnings(w io.Writer, ps config.Problems, verbose bool) {
	writeSkipped(w, ps, verbose)
	count := map[string]int{}
	for _, p := range ps {
		if p.Code == config.CodeSkipped {
			continue
		}
		if p.Severity != config.SevError {
			count[p.Code]++
		}
	}
	done := map[string]bool{}
	for _, p := range ps {
		if p.Severity == config.SevError || p.Code == config.CodeSkipped {
			continue
		}
		n := count[p.Code]
		if verbose || n < warnGroupMin {
			fmt.Fprintf(w, "%s: %s: %s\n", p.Pos, p.Severity, p.Msg)
			continue
		}
		if done[p.Code] {
			continue
		}
		done[p.Code] = true
		words, ok := warnWords[p.Code]
		if !ok {
			words = p.Code + " warnings"
		}
		fmt.Fprintf(w, "lbctl: warning: %d %s (first at %s); --verbose to list\n", n, words, p.Pos)
	}
}
