package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/commands/help"
	"github.com/lbctl/lbctl/commands/quick"
)

// completeReq runs a completion request through the real CLI, as the
// scripts send it, and returns the candidate values and the directive.
func completeReq(t *testing.T, cur string, words ...string) ([]string, string) {
	t.Helper()
	args := append([]string{"completion", "__complete", "--current=" + cur}, words...)
	code, out, errs := termRun(t, nil, args...)
	if code != 0 || errs != "" {
		t.Fatalf("completion request %q: exit %d, stderr %q", args, code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var vals []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		vals = append(vals, v)
	}
	return vals, lines[len(lines)-1]
}

func TestCompleteLine(t *testing.T) {
	const edge = "../fixtures/term/edge.yaml"
	edgeClusters := []string{"backend-blue", "backend-green", "mesh:payments", "outbound|9080||reviews.default.svc.cluster.local"}
	for _, tc := range []struct {
		name      string
		cur       string
		words     []string
		want      []string // exactly these, in order (nil: check contains)
		contains  []string
		lacks     []string
		directive string
	}{
		{name: "commands", cur: "", contains: []string{"explain", "completion", "man", "help"}, lacks: []string{"__complete"}, directive: ":nofiles"},
		{name: "command prefix", cur: "ex", want: []string{"explain"}, directive: ":nofiles"},
		{name: "global flags", cur: "--", contains: []string{"--output", "--color", "--semantics", "--version", "--help"}, lacks: []string{"--cluster", "-o"}, directive: ":nofiles"},
		{name: "short flags too", cur: "-", contains: []string{"-o", "--output"}, directive: ":nofiles"},
		{name: "command flags and persistent globals", cur: "--", words: []string{"explain"},
			contains: []string{"--cluster", "--local-cluster", "--zone", "--set-health", "--all", "--kind", "--output", "--color"}, directive: ":nofiles"},
		{name: "flag prefix", cur: "--se", words: []string{"explain"}, want: []string{"--semantics", "--set-health"}, directive: ":nofiles"},
		{name: "files after a command", cur: "", words: []string{"explain"}, lacks: []string{"help"}, directive: ":files"},
		{name: "-o values", cur: "", words: []string{"-o"}, want: []string{"text", "json", "yaml"}, directive: ":nofiles"},
		{name: "--output values after a command and file", cur: "j", words: []string{"explain", edge, "--output"}, want: []string{"json"}, directive: ":nofiles"},
		{name: "--output=", cur: "--output=y", words: []string{"explain"}, want: []string{"--output=yaml"}, directive: ":nofiles"},
		{name: "--color values", cur: "", words: []string{"--color"}, want: []string{"auto", "always", "never"}, directive: ":nofiles"},
		{name: "--semantics values", cur: "", words: []string{"explain", "--semantics"}, want: []string{"envoy", "grpc", "both"}, directive: ":nofiles"},
		{name: "--kind values", cur: "c", words: []string{"explain", "--kind"}, want: []string{"cluster", "clusters", "config_dump", "clusters_admin", "client_status"}, directive: ":nofiles"},
		{name: "shells", cur: "", words: []string{"completion"}, want: []string{"bash", "zsh", "fish", "powershell", "help"}, directive: ":nofiles"},
		{name: "clusters from the file", cur: "", words: []string{"explain", edge, "--cluster"}, want: edgeClusters, directive: ":nofiles"},
		{name: "clusters with -c and a prefix", cur: "backend-g", words: []string{"explain", edge, "-c"}, want: []string{"backend-green"}, directive: ":nofiles"},
		{name: "clusters from a file typed after the flag", cur: "", words: []string{"explain", "--cluster", "backend-blue", edge, "--cluster"}, want: edgeClusters, directive: ":nofiles"},
		{name: "clusters across a directory", cur: "", words: []string{"explain", "../fixtures/term", "--cluster"}, want: append(append([]string{}, edgeClusters[:2]...), "json-cluster", edgeClusters[2], edgeClusters[3]), directive: ":nofiles"},
		{name: "--cluster=", cur: "--cluster=mesh:", words: []string{"explain", edge}, want: []string{"--cluster=mesh:payments"}, directive: ":nofiles"},
		{name: "local-cluster is a cluster too", cur: "o", words: []string{"explain", edge, "--local-cluster"}, want: edgeClusters[3:], directive: ":nofiles"},
		{name: "flag values are not files", cur: "", words: []string{"explain", "-o", "json", edge, "--zone"}, want: nil, directive: ":nofiles"},
		{name: "flag value skipped", cur: "", words: []string{"explain", "--zone", "r/z"}, directive: ":files"},
		{name: "no clusters without files", cur: "", words: []string{"explain", "--cluster"}, want: nil, directive: ":nofiles"},
		{name: "unreadable file", cur: "", words: []string{"explain", "nope.yaml", "--cluster"}, want: nil, directive: ":nofiles"},
		{name: "after --", cur: "--", words: []string{"explain", "--"}, want: nil, directive: ":files"},
		{name: "unknown command word is a file", cur: "", words: []string{"nosuch"}, want: nil, directive: ":nofiles"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, dir := completeReq(t, tc.cur, tc.words...)
			if dir != tc.directive {
				t.Errorf("directive %q, want %q", dir, tc.directive)
			}
			if tc.want != nil || tc.contains == nil && tc.lacks == nil {
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			}
			for _, c := range tc.contains {
				if !contains(got, c) {
					t.Errorf("%q lacks %q", got, c)
				}
			}
			for _, c := range tc.lacks {
				if contains(got, c) {
					t.Errorf("%q offers %q", got, c)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Every value completion offers for a flag is one the flag accepts (its
// validator, run for real), so the completion table cannot drift from the
// flags.
func TestFlagValuesAreAccepted(t *testing.T) {
	var check func(c *cli.Command, q *quick.Cmd)
	check = func(c *cli.Command, q *quick.Cmd) {
		for i, f := range c.Flags {
			sf, ok := f.(*cli.StringFlag)
			if !ok || sf.Validator == nil {
				continue
			}
			for _, v := range q.Flags[i].Values {
				if err := sf.Validator(v); err != nil {
					t.Errorf("%s --%s %s: %v", c.Name, f.Names()[0], v, err)
				}
			}
		}
		for i, sub := range c.Commands {
			check(sub, q.Commands[i])
		}
	}
	root := New(nil, nil, nil)
	check(root, help.Tree(root))
	// The urfave/cli protocol (its built-in scripts) reaches the same engine.
	code, out, _ := termRun(t, nil, "explain", "../fixtures/term/edge.yaml", "--cluster", "--generate-shell-completion")
	if code != 0 || !strings.Contains(out, "backend-blue\n") || !strings.Contains(out, "mesh:payments\n") {
		t.Errorf("--generate-shell-completion: exit %d, %q", code, out)
	}
}

// `lbctl completion` without a shell, with an unknown one or with an extra
// argument is a usage error (help.TestCompletionScriptsCurrent checks the
// scripts themselves).
func TestCompletionUsageErrors(t *testing.T) {
	for _, bad := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "extra"}} {
		if code, _, errs := termRun(t, nil, bad...); code != ExitUsage || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", bad, code, errs)
		}
	}
}

// TestHelperLbctl is not a test: the shell tests run the test binary as
// `lbctl` through a wrapper script, and this is where it lands.
func TestHelperLbctl(t *testing.T) {
	if os.Getenv("LBCTL_TEST_HELPER") != "1" {
		t.Skip("helper process for the shell tests")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(Main(append([]string{"lbctl"}, args...), os.Stdin, os.Stdout, os.Stderr))
}

// shellEnv puts an `lbctl` that runs this test binary on PATH and returns
// the environment for a shell.
func shellEnv(t *testing.T) []string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nLBCTL_TEST_HELPER=1 exec '" + self + "' -test.run='^TestHelperLbctl$' -- \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "lbctl"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	return []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
		"XDG_CONFIG_HOME=" + home, "XDG_DATA_HOME=" + home, "TERM=dumb", "LC_ALL=C.UTF-8"}
}

// shellCase is one line typed at the prompt (the cursor at its end) and
// the candidates the shell must offer.
type shellCase struct {
	line     string
	want     []string // exactly (sorted)
	contains []string
}

var shellCases = []shellCase{
	{line: "lbctl ex", want: []string{"explain"}},
	{line: "lbctl completion ", want: []string{"bash", "fish", "help", "powershell", "zsh"}},
	{line: "lbctl explain --se", want: []string{"--semantics", "--set-health"}},
	{line: "lbctl -o ", want: []string{"json", "text", "yaml"}},
	{line: "lbctl explain --color a", want: []string{"always", "auto"}},
	{line: "lbctl explain fixtures/term/edge.yaml --cluster ", want: []string{"backend-blue", "backend-green", "mesh:payments", "outbound|9080||reviews.default.svc.cluster.local"}},
	{line: "lbctl explain fixtures/term/edge.yaml -c backend-g", want: []string{"backend-green"}},
	{line: "lbctl explain fixtures/term/ --cluster j", want: []string{"json-cluster"}},
	{line: "lbctl explain fixtures/term/e", want: []string{"fixtures/term/edge.yaml"}},
}

func checkShell(t *testing.T, sc shellCase, got []string) {
	t.Helper()
	sort.Strings(got)
	if sc.want != nil && !reflect.DeepEqual(got, sc.want) {
		t.Errorf("%q: offered %q, want %q", sc.line, got, sc.want)
	}
	for _, c := range sc.contains {
		if !contains(got, c) {
			t.Errorf("%q: %q lacks %q", sc.line, got, c)
		}
	}
}

// splitShellOutput splits a shell's output into the answers of the cases,
// separated by lines "---".
func splitShellOutput(t *testing.T, out string, n int) [][]string {
	t.Helper()
	var res [][]string
	var cur []string
	for _, l := range strings.Split(out, "\n") {
		if l == "---" {
			res = append(res, cur)
			cur = nil
			continue
		}
		if l != "" {
			cur = append(cur, l)
		}
	}
	if len(res) != n {
		t.Fatalf("expected %d answers, got %d:\n%s", n, len(res), out)
	}
	return res
}

func runShell(t *testing.T, shell string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s not installed (.ci/install-shells.sh installs it)", shell)
	}
	c := exec.Command(path, args...)
	c.Dir = ".." // the repository root, so fixtures/… paths are as a user types them
	c.Env = shellEnv(t)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", shell, err, out)
	}
	return string(out)
}

// Bash, end to end: the generated script is sourced in a clean bash, and
// its completion function is called as bash calls it on TAB (COMP_LINE and
// COMP_POINT), and the COMPREPLY it leaves is checked.
func TestCompletionBash(t *testing.T) {
	var b strings.Builder
	b.WriteString("source <(lbctl completion bash) || exit 1\ncomplete -p lbctl || exit 1\n")
	b.WriteString("t() { COMP_LINE=\"$1\"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _lbctl_complete; printf '%s\\n' \"${COMPREPLY[@]}\"; echo ---; }\n")
	for _, sc := range shellCases {
		b.WriteString("t " + shellQuote(sc.line) + "\n")
	}
	// bash replaces only what follows the last ':' or '=' of the word.
	b.WriteString("t 'lbctl explain fixtures/term/edge.yaml --cluster mesh:p'\n")
	b.WriteString("t 'lbctl explain --output=y'\n")
	out := runShell(t, "bash", "--norc", "--noprofile", "-c", b.String())
	first, rest, _ := strings.Cut(out, "\n")
	if !strings.Contains(first, "_lbctl_complete") {
		t.Fatalf("completion not registered: %q", first)
	}
	answers := splitShellOutput(t, rest, len(shellCases)+2)
	for i, sc := range shellCases {
		// bash inserts COMPREPLY as it is: names are quoted for the shell.
		sc.want = bashQuoted(sc.want)
		checkShell(t, sc, answers[i])
	}
	checkShell(t, shellCase{line: "mesh:p", want: []string{"payments"}}, answers[len(shellCases)])
	checkShell(t, shellCase{line: "--output=y", want: []string{"yaml"}}, answers[len(shellCases)+1])
}

// Fish, end to end: `complete -C` asks fish itself what it would offer.
func TestCompletionFish(t *testing.T) {
	var b strings.Builder
	b.WriteString("lbctl completion fish | source\n")
	for _, sc := range shellCases {
		b.WriteString("complete -C " + shellQuote(sc.line) + "; echo ---\n")
	}
	out := runShell(t, "fish", "--no-config", "-c", b.String())
	answers := splitShellOutput(t, out, len(shellCases))
	for i, sc := range shellCases {
		var vals []string
		for _, a := range answers[i] {
			v, _, _ := strings.Cut(a, "\t")
			vals = append(vals, v)
		}
		checkShell(t, sc, vals)
	}
}

// Zsh: the script is loaded as compinit would autoload it, with zsh's
// completion builtins (_describe, _files) replaced by recorders, and
// called with the words and CURRENT zsh would set.
func TestCompletionZsh(t *testing.T) {
	var b strings.Builder
	b.WriteString(`_describe() { local arr=${@[-1]}; print -rl -- "${(@P)arr}"; }
_files() { print -r -- "<files>"; }
compdef() { :; }
source <(lbctl completion zsh) || exit 1
t() { words=("${(@z)1}"); [[ $1 == *' ' ]] && words+=(""); CURRENT=${#words}; _lbctl; print -- ---; }
`)
	for _, sc := range shellCases {
		b.WriteString("t " + shellQuote(sc.line) + "\n")
	}
	out := runShell(t, "zsh", "-f", "-c", b.String())
	answers := splitShellOutput(t, out, len(shellCases))
	for i, sc := range shellCases {
		var vals []string
		for _, a := range answers[i] {
			if a == "<files>" {
				a = "fixtures/term/edge.yaml" // _files would list it
			}
			vals = append(vals, zshValue(a))
		}
		checkShell(t, sc, vals)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// zshValue is the value of a _describe entry VALUE:DESCRIPTION, where a
// ':' inside VALUE is escaped as "\:".
func zshValue(e string) string {
	var b strings.Builder
	for i := 0; i < len(e); i++ {
		switch {
		case e[i] == '\\' && i+1 < len(e) && e[i+1] == ':':
			b.WriteByte(':')
			i++
		case e[i] == ':':
			return b.String()
		default:
			b.WriteByte(e[i])
		}
	}
	return b.String()
}

// bashQuoted is what bash's printf %q makes of plain names (the
// characters lbctl's fixtures use).
func bashQuoted(vs []string) []string {
	if vs == nil {
		return nil
	}
	q := strings.NewReplacer("|", `\|`, " ", `\ `, "'", `\'`)
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = q.Replace(v)
	}
	return out
}

// Cluster names with '|', a space or a quote complete to words the shell
// reads back as the name: quoted by the script in bash (unless the user
// opened a quote), by the shell itself in zsh and fish.
func TestCompletionOddNames(t *testing.T) {
	const f = "commands/testdata/complete/odd.yaml"
	var b strings.Builder
	b.WriteString("source <(lbctl completion bash) || exit 1\n")
	b.WriteString("t() { COMP_LINE=\"$1\"; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _lbctl_complete; printf '%s\\n' \"${COMPREPLY[@]}\"; echo ---; }\n")
	lines := []string{
		"lbctl explain " + f + " --cluster ",
		"lbctl explain " + f + ` --cluster outbound\|90`,
		"lbctl explain " + f + ` --cluster my\ c`,
		"lbctl explain " + f + " --cluster 'my c",
		"lbctl explain " + f + ` --cluster "out`,
	}
	for _, l := range lines {
		b.WriteString("t " + shellQuote(l) + "\n")
	}
	out := runShell(t, "bash", "--norc", "--noprofile", "-c", b.String())
	got := splitShellOutput(t, out, len(lines))
	want := [][]string{
		{`it\'s`, `my\ cluster`, `outbound\|9080\|\|reviews.default.svc.cluster.local`},
		{`outbound\|9080\|\|reviews.default.svc.cluster.local`},
		{`my\ cluster`},
		{"my cluster"},
		{"outbound|9080||reviews.default.svc.cluster.local"},
	}
	for i := range lines {
		checkShell(t, shellCase{line: lines[i], want: want[i]}, got[i])
	}
	// A name typed back with the quoting bash inserted is read as the name.
	if code, out, errs := termRun(t, nil, "explain", "testdata/complete/odd.yaml", "--cluster", "my cluster", "-o", "json"); code != 0 || !strings.Contains(out, `"name": "my cluster"`) {
		t.Errorf("explain --cluster 'my cluster': exit %d %s", code, errs)
	}
	// fish quotes candidates itself: complete -C lists the raw names.
	if _, err := exec.LookPath("fish"); err == nil {
		out := runShell(t, "fish", "--no-config", "-c", "lbctl completion fish | source\ncomplete -C "+shellQuote(lines[0])+"; echo ---\n")
		var vals []string
		for _, a := range splitShellOutput(t, out, 1)[0] {
			v, _, _ := strings.Cut(a, "\t")
			vals = append(vals, v)
		}
		checkShell(t, shellCase{line: lines[0], want: []string{"it's", "my cluster", "outbound|9080||reviews.default.svc.cluster.local"}}, vals)
	}
}
