package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/charmbracelet/lipgloss"
)

// termRun runs the real CLI with args and the environment vars (nothing
// else of the process environment is visible) and returns the exit code,
// stdout and stderr.
func termRun(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	out, errs, code := runCLI("", only(vars), args...)
	return code, out, errs
}

var escape = regexp.MustCompile("\x1b")

// Piped output (the test's buffer is not a terminal) is plain ASCII with
// no escape sequence; --color always and CLICOLOR_FORCE colour it;
// NO_COLOR takes it away again.
func TestExplainPipedIsPlainASCII(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		args  []string
		color bool
	}{
		{name: "pipe", color: false},
		{name: "NO_COLOR", env: map[string]string{"NO_COLOR": "1"}},
		{name: "NO_COLOR beats CLICOLOR_FORCE", env: map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}},
		{name: "--color never", env: map[string]string{"CLICOLOR_FORCE": "1"}, args: []string{"--color", "never"}},
		{name: "CLICOLOR_FORCE", env: map[string]string{"CLICOLOR_FORCE": "1"}, color: true},
		{name: "--color always", args: []string{"--color", "always"}, color: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"explain", "../fixtures/aggregate.yaml"}, tc.args...)
			code, out, errs := termRun(t, tc.env, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if got := escape.MatchString(out); got != tc.color {
				t.Errorf("escape sequences present = %v, want %v", got, tc.color)
			}
			if !tc.color {
				for i, r := range out {
					if r >= utf8.RuneSelf {
						t.Fatalf("non-ASCII %q at byte %d in piped output", r, i)
					}
				}
			}
			// The real numbers are there whatever the styling.
			if !strings.Contains(out, "primary") || !strings.Contains(out, "70%") {
				t.Errorf("output lacks the aggregate split primary 70%%:\n%s", out)
			}
		})
	}
}

// explainFixture renders the aggregate fixture's report through a Term
// that believes it is a terminal of the given width.
func explainFixture(t *testing.T, width int) string {
	t.Helper()
	cfg, err := config.Load([]config.Input{{Path: "../fixtures/aggregate.yaml"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Build(cfg, cfg.Clusters, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tm, b := term.Test()
	tm.SetTerminal(width)
	renderExplain(tm, rep, true)
	return b.String()
}

// At 80 columns no line is longer than the terminal (it would wrap and
// break the table), every host stays on one row, and box drawing is used.
func TestExplainFitsTerminalWidth(t *testing.T) {
	for _, width := range []int{80, 100, 200} {
		out := explainFixture(t, width)
		for i, line := range strings.Split(out, "\n") {
			if w := lipgloss.Width(line); w > width {
				t.Errorf("width %d: line %d is %d columns: %q", width, i+1, w, line)
			}
		}
		if !strings.Contains(out, "─") {
			t.Errorf("width %d: no box drawing on a terminal", width)
		}
		// 30 + 8 + 4 hosts: each address on exactly one row with its share.
		for _, row := range []string{"10.0.0.10:8080", "10.1.1.4:8080", "10.2.0.1:8080"} {
			if n := strings.Count(out, row+" "); n < 1 {
				t.Errorf("width %d: host %s missing or cut:\n%s", width, row, out)
			}
		}
		if !regexp.MustCompile(`(?m)^primary\s+10\.0\.0\.1:8080\s+P0\s+-\s+UNKNOWN\s+1\s+2\.80%`).MatchString(out) {
			t.Errorf("width %d: aggregate host row for 10.0.0.1 not on one line:\n%s", width, out)
		}
	}
}
