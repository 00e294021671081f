//go:build linux

package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// memChildEnv, when set, makes the test binary run lbctl on its value's
// arguments (a child under ulimit -v, TestNodeBudgetsUnderAddressSpaceLimit).
const memChildEnv = "LBCTL_MEM_CHILD_ARGS"

// Issue 29: inputs under the (lowered) --max-input whose node count, not
// size, exhausted memory ended in the runtime's "fatal error: out of
// memory" under ulimit -v 2000000. Each must answer or be refused at a
// position with the limit named, within 5 s.
func TestNodeBudgetsUnderAddressSpaceLimit(t *testing.T) {
	if args := os.Getenv(memChildEnv); args != "" {
		os.Exit(Main(append([]string{"lbctl"}, strings.Split(args, "\x1f")...), strings.NewReader(""), os.Stdout, os.Stderr))
	}
	if testing.Short() {
		t.Skip("runs lbctl under ulimit -v")
	}
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const n = 1_500_000
	head := "name: c\nmetadata: {filter_metadata: {x: {"
	cases := []struct{ name, file, want string }{
		// 6 MB: 1.5 million aliases of one anchor.
		{"aliases", write("alias.yaml", head+"a: &a x, b: ["+strings.Repeat("*a, ", n-1)+"*a]}}}\n"), "alias.yaml:2:"},
		// 4.5 MB: 1.5 million one-letter plain scalars.
		{"scalars", write("plain.yaml", head+"b: ["+strings.Repeat("a, ", n-1)+"a]}}}\n"), "plain.yaml:2:"},
		// 6 MB of JSON numbers: 3 million nodes on the fast path.
		{"json", write("ones.json", `{"name":"c","metadata":{"filter_metadata":{"x":{"b":[`+strings.Repeat("1,", 2*n-1)+"1]}}}}\n"), "ones.json:1:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command("bash", "-c", `ulimit -v 2000000 && exec "$0" -test.run='^TestNodeBudgetsUnderAddressSpaceLimit$'`, os.Args[0])
			cmd.Env = append(os.Environ(), memChildEnv+"=explain\x1f"+c.file, "GOMEMLIMIT=")
			start := time.Now()
			out, err := cmd.CombinedOutput()
			took := time.Since(start)
			code := cmd.ProcessState.ExitCode()
			if strings.Contains(string(out), "fatal error") || took > 5*time.Second {
				t.Fatalf("exit %d after %v: %.300s", code, took, out)
			}
			if code != ExitInput || !strings.Contains(string(out), c.want) || !strings.Contains(string(out), "lbctl's limit on nodes for --max-input") {
				t.Fatalf("exit %d (%v): %.300s", code, err, out)
			}
		})
	}
}
