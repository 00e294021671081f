package commands

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGitRevisionInjection: neither --new-from-rev nor diff --git lets a
// revision reach git as an option (issue 29), and no file is written.
func TestGitRevisionInjection(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("a.yaml", []byte(aggBad), 0o644)
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-qm", "one")
	os.WriteFile("a.yaml", []byte(aggBad+aggMore), 0o644)
	revs := []string{"--output=FILE", "--output", "-oFILE", "-", "HEAD;touch FILE", "$(touch FILE)", "`touch FILE`",
		"HEAD|tee FILE", "HEAD>FILE", "HEAD FILE", "HEAD\nFILE", "HEAD\x1b[2J"}
	for _, rev := range revs {
		for _, args := range [][]string{
			{"lint", "a.yaml", "--new-from-rev=" + rev},
			{"lint", "a.yaml", "--new-from-rev", rev},
			{"diff", "--git=" + rev, "a.yaml"},
			{"diff", "--git", rev + "..HEAD", "a.yaml"},
			{"diff", "--git", "HEAD.." + rev, "a.yaml"},
		} {
			code, _, errs := termRun(t, nil, args...)
			if code != ExitUsage || !strings.Contains(errs, "not a revision") {
				t.Errorf("%q: exit %d, %q", args, code, errs)
			}
			if _, err := os.Stat("FILE"); err == nil {
				t.Fatalf("%q created FILE", args)
			}
		}
	}
	// A plain revision still works through the same guard.
	if code, out, errs := termRun(t, nil, "lint", "a.yaml", "--new-from-rev", "HEAD", "--fail-on", "warning"); code != ExitFindings || !strings.Contains(out, "nowhere") {
		t.Errorf("--new-from-rev HEAD: exit %d, %q\n%s", code, errs, out)
	}
	if code, _, errs := termRun(t, nil, "lint", "a.yaml", "--new-from-rev=--output=FILE"); errs != "lbctl: --new-from-rev \"--output=FILE\": not a revision\n" || code != ExitUsage {
		t.Errorf("message: exit %d, %q", code, errs)
	}
}
