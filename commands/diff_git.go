package commands

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
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
		return nil, nil, usageErrorf("--git %q: expected REV or REV..REV", rev)
	}
	for _, r := range []string{a, b} {
		if r == "" {
			continue
		}
		if strings.HasPrefix(r, "-") {
			return nil, nil, usageErrorf("--git %q: not a revision", r)
		}
		if _, err := git("rev-parse", "--verify", "--quiet", r+"^{commit}"); err != nil {
			return nil, nil, usageErrorf("--git %s: not a commit in this repository (%v)", r, err)
		}
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return nil, nil, usageErrorf("--git: %v", err)
	}
	top = strings.TrimSpace(top)
	var files []string // repository-relative
	if len(paths) > 0 {
		spec := append([]string{"--"}, paths...)
		old, err := git(append([]string{"ls-tree", "-r", "--name-only", "--full-name", a}, spec...)...)
		if err != nil {
			return nil, nil, usageErrorf("--git %s: %v", a, err)
		}
		files = strings.Split(old, "\n")
		var cur string
		if isRange {
			cur, err = git(append([]string{"ls-tree", "-r", "--name-only", "--full-name", b}, spec...)...)
		} else {
			cur, err = git(append([]string{"ls-files", "--full-name", "--cached", "--others", "--exclude-standard"}, spec...)...)
		}
		if err != nil {
			return nil, nil, usageErrorf("--git %s: %v", rev, err)
		}
		files = append(files, strings.Split(cur, "\n")...)
	} else {
		args := []string{"diff", "--name-only", "--no-renames", a}
		if isRange {
			args = append(args, b)
		}
		changed, err := git(append(args, "--", ":/")...)
		if err != nil {
			return nil, nil, usageErrorf("--git %s: %v", rev, err)
		}
		files = strings.Split(changed, "\n")
		if !isRange {
			untracked, _ := git("ls-files", "--full-name", "--others", "--exclude-standard", ":/")
			files = append(files, strings.Split(untracked, "\n")...)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	wd, _ := os.Getwd()
	for _, f := range files {
		if f == "" || !config.IsConfigFile(f) {
			continue
		}
		abs := filepath.Join(top, filepath.FromSlash(f))
		name, err := filepath.Rel(wd, abs)
		if err != nil {
			name = abs
		}
		if data, err := gitShow(a, f); err == nil {
			oin = append(oin, config.Input{Path: a + ":" + name, Data: data})
		}
		if isRange {
			if data, err := gitShow(b, f); err == nil {
				nin = append(nin, config.Input{Path: name, Data: data})
			}
		} else if _, err := os.Stat(abs); err == nil {
			nin = append(nin, config.Input{Path: name})
		}
	}
	return oin, nin, nil
}

// gitShow is a file's content at rev (path relative to the top).
func gitShow(rev, path string) ([]byte, error) {
	out, err := git("show", rev+":"+path)
	return []byte(out), err
}
