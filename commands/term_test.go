package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
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
