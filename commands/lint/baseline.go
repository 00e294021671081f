package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/analyze/config/parse"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lint"
)

// adoptionFlags are lint's flags for adopting it on an existing
// repository: a baseline of accepted findings, and findings on changed
// lines only (as golangci-lint's --new-from-rev and detekt's baseline).
func adoptionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "baseline", Usage: "do not report findings recorded in this file (see --write-baseline)"},
		&cli.StringFlag{Name: "write-baseline", Usage: "record today's findings in this file and exit 0"},
		&cli.StringFlag{Name: "new-from-rev", Usage: "report only findings on lines changed since this git revision"},
	}
}

// baselineEntry identifies a finding without its line, so a baseline
// survives edits above the finding: rule, file and message.
type baselineEntry struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Message string `json:"message"`
}

type baselineFile struct {
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

// entryOf spells the message's option references: a baseline file holds
// what lint printed, not through a Guard.
func entryOf(f lint.Finding) baselineEntry {
	return baselineEntry{Rule: f.Rule, File: filepath.ToSlash(filepath.Clean(f.Pos.File)), Message: term.Spell(f.Message)}
}

// adopt applies --write-baseline, --baseline and --new-from-rev to the
// findings. Writing a baseline reports nothing (exit 0).
func adopt(cmd *cli.Command, fs []lint.Finding) ([]lint.Finding, error) {
	if path := cmd.String("write-baseline"); path != "" {
		b := baselineFile{Version: 1, Findings: []baselineEntry{}}
		for _, f := range fs {
			b.Findings = append(b.Findings, entryOf(f))
		}
		sort.SliceStable(b.Findings, func(i, j int) bool {
			x, y := b.Findings[i], b.Findings[j]
			if x.File != y.File {
				return x.File < y.File
			}
			return x.Rule < y.Rule
		})
		data, _ := json.MarshalIndent(b, "", "  ")
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			return nil, cmdutil.InputError(err)
		}
		if !cmd.Bool("quiet") {
			fmt.Fprintf(cmd.Root().ErrWriter, "lbctl: recorded %d findings in %s\n", len(fs), path)
		}
		return nil, nil
	}
	if path := cmd.String("baseline"); path != "" {
		var err error
		if fs, err = applyBaseline(path, cmdutil.Limits(cmd).MaxInput, fs); err != nil {
			return nil, err
		}
	}
	if rev := cmd.String("new-from-rev"); rev != "" {
		changed, err := changedLines(rev)
		if err != nil {
			return nil, err
		}
		fs = onChangedLines(fs, changed)
	}
	return fs, nil
}

// applyBaseline drops the findings recorded in the baseline file, each
// entry matching as many findings as it was recorded for.
func applyBaseline(path string, max int64, fs []lint.Finding) ([]lint.Finding, error) {
	data, err := parse.ReadFile(path, max)
	if err != nil {
		return nil, cmdutil.InputErrorf("--baseline %s: %v", path, err)
	}
	var b baselineFile
	if err := json.Unmarshal(data, &b); err != nil || b.Version != 1 {
		return nil, cmdutil.InputErrorf("%s: not an lbctl baseline (write one with --write-baseline)", path)
	}
	left := map[baselineEntry]int{}
	for _, e := range b.Findings {
		left[e]++
	}
	var out []lint.Finding
	for _, f := range fs {
		if e := entryOf(f); left[e] > 0 {
			left[e]--
			continue
		}
		out = append(out, f)
	}
	return out, nil
}
