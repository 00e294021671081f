package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/cmdutil"

	"github.com/urfave/cli/v3"
	"go.yaml.in/yaml/v3"
)

// globalCases gives each command a run that prints data (from the
// repository root), so every global flag can be tried on it.
var globalCases = map[string][]string{
	"explain":    {"fixtures/aggregate.yaml"},
	"lint":       {"fixtures/lint/LB1203-bad.yaml", "--fail-on", "none"},
	"rules":      {},
	"hash":       {"fixtures/hash/ring-basic.yaml", "--cluster", "ring", "--key", "alice"},
	"subset":     {"fixtures/subset/seed-cluster.yaml", "--cluster", "cluster-name", "--match", "stage=canary"},
	"session":    {"fixtures/grpc/session.yaml", "--cluster", "svc", "--cookie", "10.40.0.2:80"},
	"sweep":      {"fixtures/priority-two-levels.yaml", "--cluster", "backend"},
	"diff":       {"fixtures/diff/hosts/old.yaml", "fixtures/diff/hosts/new.yaml"},
	"completion": {"bash"},
	"man":        {},
	"route":      {"fixtures/route/weighted.yaml", "--path", "/checkout", "--header", "x-user=alice"},
}

// Every command, every global flag value: either honoured (the output
// shows it) or rejected as a usage error (exit 2, "lbctl:" on stderr,
// nothing on stdout). Accepted-and-ignored fails.
func TestGlobalFlagsHonouredOrRejected(t *testing.T) {
	t.Chdir("..")
	for _, c := range New(nil, nil, nil).Commands {
		if c.Hidden || c.Name == "help" {
			continue
		}
		args, ok := globalCases[c.Name]
		if !ok {
			t.Errorf("command %s has no row in globalCases", c.Name)
			continue
		}
		s, _ := cmdutil.SupportOf(c)
		_, plain, _ := termRun(t, nil, append([]string{c.Name}, args...)...)
		for _, g := range [][]string{{"-o", "json"}, {"--output", "yaml"}, {"--color", "always"}, {"--color", "never"},
			{"--semantics", "grpc"}, {"--semantics", "both"}, {"--quiet"}, {"--verbose"}} {
			name := c.Name + " " + strings.Join(g, " ")
			t.Run(name, func(t *testing.T) {
				code, out, errs := termRun(t, nil, append(append([]string{c.Name}, args...), g...)...)
				honoured := true
				switch g[0] + " " + g[len(g)-1] {
				case "-o json":
					honoured = slicesHas(s.Output, "json")
				case "--output yaml":
					honoured = slicesHas(s.Output, "yaml")
				case "--color always":
					honoured = s.Color
				case "--semantics grpc":
					honoured = slicesHas(s.Semantics, "grpc")
				case "--semantics both":
					honoured = slicesHas(s.Semantics, "both")
				}
				if !honoured {
					if code != ExitUsage || out != "" || !strings.HasPrefix(errs, "lbctl: ") {
						t.Errorf("%s: want a usage error (exit 2, lbctl: on stderr, no stdout); exit %d, stderr %q, %d bytes out", name, code, errs, len(out))
					}
					return
				}
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", name, code, errs)
				}
				switch g[0] + " " + g[len(g)-1] {
				case "-o json":
					var v any
					if err := json.Unmarshal([]byte(out), &v); err != nil {
						t.Errorf("%s: not JSON: %v\n%s", name, err, out)
					}
				case "--output yaml":
					var v map[string]any
					if err := yaml.Unmarshal([]byte(out), &v); err != nil || len(v) == 0 {
						t.Errorf("%s: not a YAML mapping: %v\n%s", name, err, out)
					}
				case "--color always":
					if !strings.Contains(out, "\x1b[") {
						t.Errorf("%s: no colour in the output", name)
					}
				case "--color never", "--quiet --quiet", "--verbose --verbose":
					if strings.Contains(out, "\x1b[") || out != plain {
						t.Errorf("%s: output differs from the plain run", name)
					}
				case "--semantics grpc", "--semantics both":
					if out == plain {
						t.Errorf("%s: output is the same as --semantics envoy", name)
					}
				}
			})
		}
	}
}

func slicesHas(l []string, v string) bool {
	for _, s := range l {
		if s == v {
			return true
		}
	}
	return false
}

// lint's --semantics is its --target, -o json its --format json; given
// together and different they are a usage error.
func TestLintGlobalAliases(t *testing.T) {
	t.Chdir("..")
	for _, p := range [][2][]string{
		{{"lint", "fixtures/grpc", "--semantics", "grpc"}, {"lint", "fixtures/grpc", "--target", "grpc"}},
		{{"lint", "fixtures/grpc", "--semantics", "both"}, {"lint", "fixtures/grpc", "--target", "both"}},
		{{"lint", "fixtures/grpc", "-o", "json"}, {"lint", "fixtures/grpc", "--format", "json"}},
	} {
		c1, o1, _ := termRun(t, nil, p[0]...)
		c2, o2, _ := termRun(t, nil, p[1]...)
		if c1 != c2 || o1 != o2 || o1 == "" {
			t.Errorf("%v (exit %d) differs from %v (exit %d)", p[0], c1, p[1], c2)
		}
	}
	for _, args := range [][]string{
		{"lint", "fixtures/grpc", "--semantics", "grpc", "--target", "envoy"},
		{"lint", "fixtures/grpc", "-o", "json", "--format", "sarif"},
	} {
		if code, out, errs := termRun(t, nil, args...); code != ExitUsage || out != "" || !strings.Contains(errs, "disagree") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// every command, with every subcommand, fits 80 columns in a pipe.
func TestHelpFits80Columns(t *testing.T) {
	var walk func(c *cli.Command, path []string)
	walk = func(c *cli.Command, path []string) {
		if c.Hidden {
			return
		}
		code, out, errs := termRun(t, nil, append(path, "--help")...)
		if code != 0 || out == "" {
			t.Errorf("lbctl %v --help: exit %d %s", path, code, errs)
		}
		for _, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("lbctl %s --help: %d columns: %q", strings.Join(path, " "), n, l)
			}
		}
		for _, s := range c.Commands {
			walk(s, append(append([]string{}, path...), s.Name))
		}
	}
	walk(New(nil, nil, nil), nil)
	// COLUMNS narrows (or widens) it, as on a terminal.
	_, out, _ := termRun(t, map[string]string{"COLUMNS": "60"}, "explain", "--help")
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 60 {
			t.Errorf("COLUMNS=60: %q", l)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explian"}, `lbctl: unknown command "explian"; did you mean explain? (see lbctl --help)`},
		{[]string{"lnit"}, `did you mean lint?`},
		{[]string{"explain", "--clustr", "x"}, `lbctl: unknown flag --clustr for lbctl explain; did you mean --cluster? (see lbctl explain --help)`},
		{[]string{"lint", "--fial-on", "x"}, `did you mean --fail-on?`},
		{[]string{"--outptu", "json", "rules"}, `did you mean --output?`},
		{[]string{"rules", "LB12O3"}, `lbctl: no rule "LB12O3"; did you mean LB1203?`},
		{[]string{"frobnicate"}, `lbctl: unknown command "frobnicate" (see lbctl --help)`},
		{[]string{"-o", "jsno", "rules"}, "lbctl: --output \"jsno\": expected one of text, json, yaml, csv, markdown, github; did you mean json? (see lbctl --help)\n"},
		{[]string{"lint", "--format", "sarf", "x"}, `; did you mean sarif? (see lbctl lint --help)`},
		{[]string{"completion", "bsh"}, `; did you mean bash?`},
	} {
		code, out, errs := termRun(t, nil, c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
}
