package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/term"
)

// fuzzFlags are the commands and flags FuzzFlagValues gives a fuzzed
// value, on a small fixture: every numeric flag and some naming ones.
var fuzzFlags = [][]string{
	{"explain", "--set-health"}, {"explain", "--active-requests"}, {"explain", "--host-age"},
	{"explain", "--host-weight"}, {"explain", "--zone"}, {"explain", "--cluster"},
	{"explain", "--local-cluster"}, {"explain", "--max-input"}, {"sweep", "--step"},
	{"sweep", "--priority"}, {"sweep", "--set-health"}, {"sweep", "--grid"},
	{"hash", "--hash"}, {"hash", "--priority"}, {"hash", "--remove"}, {"hash", "--header"},
	{"subset", "--match"}, {"session", "--cookie"}, {"lint", "--fail-on"}, {"lint", "--disable"},
	{"diff", "--fail-on-shift"}, {"diff", "--fail-on-remap"},
}

// FuzzFlagValues runs lbctl in-process with a fuzzed flag value: no panic,
// an exit code of the contract, no raw control character on either stream.
func FuzzFlagValues(f *testing.F) {
	for i, v := range []string{"NaN", "Inf", "-1", "1e400", "1e-9", "101", "backend=NaN", "backend/P1=50",
		"10.0.0.1:80=3", "x\n::add-mask::y", "\u202e\u2028\u200b", "0x10", "a/b/c", "0,1"} {
		f.Add(uint8(i), v)
	}
	const fx = "../fixtures/priority-two-levels.yaml"
	f.Fuzz(func(t *testing.T, which uint8, v string) {
		ff := fuzzFlags[int(which)%len(fuzzFlags)]
		args := []string{ff[0], fx, ff[1], v}
		switch ff[0] {
		case "sweep", "hash", "subset", "session":
			if ff[1] != "--cluster" {
				args = append(args, "--cluster", "backend")
			}
		case "diff":
			args = []string{"diff", fx, fx, ff[1], v}
		}
		out, errOut, code := runCLI("", only(nil), args...)
		checkCLIResult(t, args, out, errOut, code)
	})
}

// FuzzLbctlYAML runs lint under a fuzzed .lbctl.yaml in the working
// directory: the same promises as FuzzFlagValues.
func FuzzLbctlYAML(f *testing.F) {
	for _, s := range []string{"disable: [LB1504]\nfail-on: warning\n", "target: grpc\n", "fail-on: nope\n",
		"disable: [\"x\\n::add-mask::y\"]\n", "disable: 3\n", ": :\n", "fail-on: [a, b]\n", "\u202e: 1\n"} {
		f.Add(s)
	}
	fx, err := filepath.Abs("../fixtures/aggregate.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ".lbctl.yaml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		out, errOut, code := runCLI("", only(nil), "lint", fx)
		checkCLIResult(t, []string{"lint", s}, out, errOut, code)
	})
}

func checkCLIResult(t *testing.T, args []string, out, errOut string, code int) {
	t.Helper()
	if code < 0 || code > 3 {
		t.Errorf("%q: exit %d", args, code)
	}
	if strings.Contains(errOut, "internal error") || strings.Contains(errOut, "goroutine ") {
		t.Errorf("%q: %s", args, errOut)
	}
	for _, s := range []string{out, errOut} {
		if !term.Plain([]byte(s)) {
			t.Errorf("%q: raw control character in %q", args, s)
		}
	}
}
