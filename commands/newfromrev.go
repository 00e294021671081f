package commands

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/lint"
)

// lineRange is lines [from, to] of a file's new version.
type lineRange struct{ from, to int }

// changes are the changed lines since a revision by absolute file path;
// a file present with no ranges is new (untracked): all of it counts.
type changes map[string][]lineRange

// changedLines runs `git diff -U0 REV` (and lists untracked files) in the
// working directory's repository.
func changedLines(rev string) (changes, error) {
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return nil, usageErrorf("--new-from-rev %s: %v", rev, err)
	}
	top = strings.TrimSpace(top)
	diff, err := git("diff", "-U0", "--no-color", "--no-ext-diff", rev, "--")
	if err != nil {
		return nil, usageErrorf("--new-from-rev %s: %v", rev, err)
	}
	c := parseDiff(diff, top)
	untracked, err := git("ls-files", "--others", "--exclude-standard", "--full-name", ":/")
	if err == nil {
		for _, f := range strings.Fields(untracked) {
			c[filepath.Join(top, f)] = nil
		}
	}
	return c, nil
}

func git(args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// parseDiff reads the new-side hunks of a unified diff with -U0: after
// "+++ b/PATH", each "@@ -a,b +c,d @@" changes lines c..c+d-1 (d absent
// means 1; d 0 is a pure deletion, which changes no line of the new file).
func parseDiff(diff, top string) changes {
	c := changes{}
	var file string
	sc := bufio.NewScanner(strings.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = ""
			if p, ok := strings.CutPrefix(line[4:], "b/"); ok {
				file = filepath.Join(top, p)
				c[file] = []lineRange{}
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			f := strings.Fields(line)
			if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
				continue
			}
			start, count, _ := strings.Cut(f[2][1:], ",")
			from, err := strconv.Atoi(start)
			if err != nil {
				continue
			}
			n := 1
			if count != "" {
				n, _ = strconv.Atoi(count)
			}
			if n > 0 {
				c[file] = append(c[file], lineRange{from, from + n - 1})
			}
		}
	}
	return c
}

// onChangedLines keeps the findings on changed lines; a finding without
// a line is kept when its file changed at all.
func onChangedLines(fs []lint.Finding, c changes) []lint.Finding {
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
			if f.Pos.Line >= r.from && f.Pos.Line <= r.to {
				out = append(out, f)
				break
			}
		}
	}
	return out
}
