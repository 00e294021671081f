package gitrev

import (
	"bufio"
	"path/filepath"
	"strconv"
	"strings"
)

// LineRange is lines [From, To] of a file's new version.
type LineRange struct{ From, To int }

// Changes are the changed lines since a revision by absolute file path;
// a file present with no ranges is new (untracked): all of it counts.
type Changes map[string][]LineRange

// ChangedLines runs `git diff -U0 REV` (and lists untracked files) in the
// working directory's repository.
func ChangedLines(rev string) (Changes, error) {
	if err := Check(rev); err != nil {
		return nil, err
	}
	top, err := Top()
	if err != nil {
		return nil, err
	}
	diff, err := Git("diff", "-U0", "--no-color", "--no-ext-diff", "--end-of-options", rev, "--")
	if err != nil {
		return nil, err
	}
	c := ParseDiff(diff, top)
	untracked, err := Git("ls-files", "--others", "--exclude-standard", "--full-name", "--", ":/")
	if err == nil {
		for _, f := range strings.Fields(untracked) {
			c[filepath.Join(top, f)] = nil
		}
	}
	return c, nil
}

// ParseDiff reads the new-side hunks of a unified diff with -U0: after
// "+++ b/PATH", each "@@ -a,b +c,d @@" changes lines c..c+d-1 (d absent
// means 1; d 0 is a pure deletion, which changes no line of the new file).
func ParseDiff(diff, top string) Changes {
	c := Changes{}
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
				c[file] = []LineRange{}
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
				c[file] = append(c[file], LineRange{from, from + n - 1})
			}
		}
	}
	return c
}
