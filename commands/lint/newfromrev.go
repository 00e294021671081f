package lint

import (
	"errors"
	"path/filepath"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/gitrev"
	"github.com/lbctl/lbctl/lint"
)

// changedLines is gitrev.ChangedLines with --new-from-rev's messages.
func changedLines(rev string) (gitrev.Changes, error) {
	c, err := gitrev.ChangedLines(rev)
	if errors.Is(err, gitrev.ErrNotRevision) {
		return nil, cmdutil.UsageErrorf("--new-from-rev %q: %v", rev, err)
	}
	if err != nil {
		return nil, cmdutil.UsageErrorf("--new-from-rev %s: %v", rev, err)
	}
	return c, nil
}

// onChangedLines keeps the findings on changed lines; a finding without
// a line is kept when its file changed at all.
func onChangedLines(fs []lint.Finding, c gitrev.Changes) []lint.Finding {
	var out []lint.Finding
	for _, f := range fs {
		abs, err := filepath.Abs(f.Pos.File)
		if err != nil {
			continue
		}
		ranges, ok := c[abs]
		if !ok {
			continue
		}
		if ranges == nil || f.Pos.Line == 0 {
			out = append(out, f)
			continue
		}
		for _, r := range ranges {
			if f.Pos.Line >= r.From && f.Pos.Line <= r.To {
				out = append(out, f)
				break
			}
		}
	}
	return out
}
