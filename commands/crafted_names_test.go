package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crafted is what a crafted name or path holds: a newline that would start
// a CI workflow command, a tab, a bidi override, line and paragraph
// separators and zero-width characters.
const crafted = "x\n::add-mask::leak\t\u202e\u2028\u2029\u200b\u200d\u2060\ufeff"

// rawCrafted lists what must never reach the output raw.
var rawCrafted = []string{"\t", "\u202e", "\u2028", "\u2029", "\u200b", "\u200d", "\u2060", "\ufeff", "\n::add-mask"}

func craftedConfig(t *testing.T) (dir, file string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "d"+crafted)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skip("file system refuses the name:", err)
	}
	y := "clusters:\n"
	for _, n := range []string{`x\n::add-mask::leak\t\u202e\u2028\u2029\u200b\u200d\u2060\ufeff`, "b"} {
		y += `- name: "` + n + `"
  type: STATIC
  lb_policy: RING_HASH
  load_assignment:
    cluster_name: b
    endpoints:
    - lb_endpoints:
      - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
`
	}
	file = filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(file, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// Every error path that prints a name from the input or the command line
// escapes it where it is embedded: each error stays one line, and no
// separator, bidi or zero-width character reaches the terminal raw.
func TestHostileNamesInErrors(t *testing.T) {
	_, f := craftedConfig(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"explain", f, "--cluster", "nope"}, ExitUsage, `the clusters are: b, x\n::add-mask::leak\t\u202e\u2028\u2029\u200b\u200d\u2060\ufeff`},
		{[]string{"hash", f, "--cluster", "nope"}, ExitUsage, "no such cluster in "},
		{[]string{"subset", f, "--cluster", "nope"}, ExitUsage, "no such cluster in "},
		{[]string{"session", f, "--cluster", "nope"}, ExitUsage, "no such cluster in "},
		{[]string{"sweep", f, "--cluster", "nope"}, ExitUsage, "no such cluster in "},
		{[]string{"explain", f, "--set-health", crafted + "z=50"}, ExitUsage, `--set-health x\n::add-mask`},
		{[]string{"route", f, "--path", "/", "--set-health", crafted + "z=50"}, ExitUsage, `--set-health x\n::add-mask`},
		{[]string{"sweep", f, "--cluster", "b", "--set-health", crafted + "z=50"}, ExitUsage, `--set-health x\n::add-mask`},
		{[]string{"explain", f, "--local-cluster", crafted + "z"}, ExitUsage, `the closest cluster is x\n::add-mask`},
		{[]string{"explain", f, "--active-requests", crafted + "=3"}, ExitUsage, `--active-requests x\n::add-mask`},
		{[]string{"hash", f, "--cluster", "b", "--remove", crafted}, ExitUsage, "has no such host"},
		{[]string{"hash", f, "--cluster", "b", "--route", crafted, "--path", "/"}, ExitUsage, "no route of that name"},
		{[]string{"explain", f + crafted}, ExitInput, `c.yamlx\n::add-mask`},
	} {
		out, errOut, code := run(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.want)
		}
		checkNoRaw(t, c.args, out+errOut)
		if n := strings.Count(strings.TrimRight(errOut, "\n"), "\n"); n != 0 {
			t.Errorf("%q: %d lines on stderr, want one: %q", c.args, n+1, errOut)
		}
	}
}

// A file path holding a newline cannot forge a second FILE:LINE:COL: line
// in "Envoy rejects this cluster".
func TestHostilePathRejectedCluster(t *testing.T) {
	dir, _ := craftedConfig(t)
	b, err := os.ReadFile("../fixtures/lint/LB1016-bad.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "r.yaml")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "explain", "--cluster", "wrr", f)
	if code != ExitInput || !strings.Contains(errOut, `::add-mask::leak\t\u202e`) || !strings.Contains(errOut, `r.yaml:12:15: cluster "wrr": Envoy rejects this cluster`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	for _, line := range strings.Split(strings.TrimRight(errOut, "\n"), "\n") {
		if !strings.HasPrefix(line, filepath.Dir(dir)) && !strings.HasPrefix(line, "lbctl: ") {
			t.Errorf("forged line %q in %q", line, errOut)
		}
	}
	checkNoRaw(t, []string{f}, errOut)
}

// Text output escapes separators and zero-width characters too.
func TestHostileNameInTextOutput(t *testing.T) {
	_, f := craftedConfig(t)
	out, errOut, code := run(t, "", "explain", f)
	if code != ExitOK || !strings.Contains(out, `x\n::add-mask::leak\t\u202e\u2028\u2029\u200b\u200d\u2060\ufeff`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	checkNoRaw(t, nil, out+errOut)
}

// A list of valid names is capped.
func TestKnownClustersCapped(t *testing.T) {
	y := "clusters:\n"
	for i := range 500 {
		y += "- {name: c" + strings.Repeat("n", 200) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ", type: STATIC}\n"
	}
	f := filepath.Join(t.TempDir(), "many.yaml")
	if err := os.WriteFile(f, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "explain", f, "--cluster", "nope")
	if code != ExitUsage || !strings.Contains(errOut, "… and 480 more") || len(errOut) > 4000 {
		t.Errorf("exit %d, %d bytes: %.300q", code, len(errOut), errOut)
	}
}

func checkNoRaw(t *testing.T, args []string, s string) {
	t.Helper()
	for _, r := range rawCrafted {
		if strings.Contains(s, r) {
			t.Errorf("%q: raw %q in output %q", args, r, s)
		}
	}
}
