package commands

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/quick"
)

// examples returns the example command lines of a command's description:
// the indented "lbctl ..." lines after "Examples:".
func examples(desc string) []string {
	_, rest, ok := strings.Cut(desc, "Examples:\n")
	if !ok {
		return nil
	}
	var out []string
	for _, line := range strings.Split(rest, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || !strings.HasPrefix(line, " ") {
			break
		}
		out = append(out, l)
	}
	return out
}

// Every visible command has help with examples, and every example runs
// (from the repository root, on the files in fixtures/) with exit 0.
// Examples that pipe or redirect are only checked up to the pipe.
func TestHelpExamplesRun(t *testing.T) {
	t.Chdir("..")
	root := New(nil, nil, nil)
	for _, c := range root.Commands {
		if c.Hidden || c.Name == "help" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			code, help, errs := termRun(t, nil, c.Name, "--help")
			if code != 0 || !strings.Contains(help, "Examples:") {
				t.Errorf("lbctl %s --help: exit %d, no Examples section: %s%s", c.Name, code, help, errs)
			}
			ex := examples(c.Description)
			if len(ex) == 0 {
				t.Fatalf("lbctl %s: no examples in its help", c.Name)
			}
			for _, e := range ex {
				line, _, _ := strings.Cut(e, "|")
				line, _, _ = strings.Cut(line, ">")
				args := strings.Fields(line)
				if len(args) < 2 || args[0] != "lbctl" {
					t.Errorf("example %q does not start with lbctl", e)
					continue
				}
				for _, a := range args {
					if strings.ContainsAny(a, `'"$`) {
						t.Errorf("example %q needs a shell to run; keep examples literal", e)
					}
				}
				code, out, errs := termRun(t, nil, args[1:]...)
				if code != 0 || out == "" {
					t.Errorf("example %q: exit %d, %d bytes out, stderr %s", e, code, len(out), errs)
				}
			}
		})
	}
}

// --version names lbctl's version and the Envoy API (go-control-plane)
// it was built against.
func TestVersion(t *testing.T) {
	code, out, _ := termRun(t, nil, "--version")
	// A test binary carries no module dependencies in its build info, so
	// the version is "unknown" here; a built lbctl says e.g. v1.40.0.
	if code != 0 || !regexp.MustCompile(`^lbctl version dev \(Envoy API: go-control-plane/envoy (v\d+\.\d+\.\d+|unknown)\)\n$`).MatchString(out) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// Prose that overflows moves into the next line of its paragraph (no
// one-word lines); example commands break before a flag with a shell
// continuation, so the wrapped lines still paste as one command.
func TestWrapHelpReflowsProseAndExamples(t *testing.T) {
	in := strings.Join([]string{
		"DESCRIPTION:",
		"   one two three four five six seven eight nine ten eleven twelve",
		"   thirteen fourteen.",
		"   - a list item stays where it is",
		"",
		"   Examples:",
		"     lbctl sweep fixtures/a.yaml --cluster backend --grid 0,1 --step 25",
	}, "\n")
	want := strings.Join([]string{
		"DESCRIPTION:",
		"   one two three four five six seven eight nine",
		"   ten eleven twelve thirteen fourteen.",
		"   - a list item stays where it is",
		"",
		"   Examples:",
		"     lbctl sweep fixtures/a.yaml \\",
		"         --cluster backend --grid 0,1 --step 25",
	}, "\n")
	if got := quick.WrapHelp(in, 50); got != want {
		t.Errorf("WrapHelp:\n%s\nwant:\n%s", got, want)
	}
}
