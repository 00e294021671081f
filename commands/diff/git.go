package diff

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/gitrev"
)

// gitSides reads the two sides of `diff --git REV[..REV] [PATH ...]` with
// git show: no checkout is touched. Without a second revision the new side
// is the working tree. PATHs (files or directories, relative to the current
// directory) select config files on both sides; without PATH, the config
// files that differ between the sides (none: an empty diff). A file
// missing on one side is absent there: its clusters are added or removed.
func gitSides(rev string, paths []string) (oin, nin []config.Input, err error) {
	a, b, isRange := strings.Cut(rev, "..")
	if a == "" || isRange && b == "" {
		return nil, nil, cmdutil.UsageErrorf("--git %q: expected REV or REV..REV", rev)
	}
	for _, r := range []string{a, b} {
		if r == "" {
			continue
		}
		if err := gitrev.Check(r); err != nil {
			return nil, nil, cmdutil.UsageErrorf("--git %q: %v", r, err)
		}
		if err := gitrev.Verify(r); err != nil {
			return nil, nil, cmdutil.UsageErrorf("--git %s: not a commit in this repository (%v)", r, err)
		}
	}
	top, err := gitrev.Top()
	if err != nil {
		return nil, nil, cmdutil.UsageErrorf("--git: %v", err)
	}
	var files []string // repository-relative
	if len(paths) > 0 {
		old, err := gitrev.Tree(a, paths)
		if err != nil {
			return nil, nil, cmdutil.UsageErrorf("--git %s: %v", a, err)
		}
		files = strings.Split(old, "\n")
		var cur string
		if isRange {
			cur, err = gitrev.Tree(b, paths)
		} else {
			cur, err = gitrev.Git(append([]string{"ls-files", "--full-name", "--cached", "--others", "--exclude-standard", "--"}, paths...)...)
		}
		if err != nil {
			return nil, nil, cmdutil.UsageErrorf("--git %s: %v", rev, err)
		}
		files = append(files, strings.Split(cur, "\n")...)
	} else {
		changed, err := gitrev.Changed(a, b)
		if err != nil {
			return nil, nil, cmdutil.UsageErrorf("--git %s: %v", rev, err)
		}
		files = strings.Split(changed, "\n")
		if !isRange {
			untracked, _ := gitrev.Git("ls-files", "--full-name", "--others", "--exclude-standard", "--", ":/")
			files = append(files, strings.Split(untracked, "\n")...)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	wd, _ := os.Getwd()
	for _, f := range files {
		if f == "" || !config.ReadInDirectory(f) {
			continue
		}
		abs := filepath.Join(top, filepath.FromSlash(f))
		name, err := filepath.Rel(wd, abs)
		if err != nil {
			name = abs
		}
		if data, err := gitrev.Show(a, f); err == nil {
			oin = append(oin, config.Input{Path: a + ":" + name, Data: data})
		}
		if isRange {
			if data, err := gitrev.Show(b, f); err == nil {
				nin = append(nin, config.Input{Path: name, Data: data})
			}
		} else if _, err := os.Stat(abs); err == nil {
			nin = append(nin, config.Input{Path: name})
		}
	}
	return oin, nin, nil
}
