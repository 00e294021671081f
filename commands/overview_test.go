package commands

import (
	"os"
	"strings"
	"testing"
)

const mesh = "../fixtures/overview/mesh.yaml"

// More than 10 clusters without --cluster: one overview table, the four
// clusters needing attention first, each with its flag.
func TestExplainOverview(t *testing.T) {
	out, errs, code := run(t, "", "explain", mesh)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "overview/mesh.overview.txt", out)
	lines := strings.Split(out, "\n")
	for i, want := range []string{"checkout", "inventory", "payments", "sessions"} {
		if !strings.HasPrefix(lines[2+i], want+" ") {
			t.Errorf("row %d is %q, want %s first", i, lines[2+i], want)
		}
	}
	for _, want := range []string{
		"checkout   ROUND_ROBIN      6/8  84% (P1 16%)  no          0  spilling",
		"inventory  ROUND_ROBIN      0/0  -             -       never  no-endpoints",
		"payments   ROUND_ROBIN      1/4  100%          TOTAL   never  total-panic",
		"sessions   RING_HASH        8/8  100%          no      never  thin-ring",
		"13 clusters, 4 needing attention.",
		"--cluster NAME", "--details",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("overview lacks %q:\n%s", want, out)
		}
	}
	// --overview forces it on a small input too.
	if out, _, _ := run(t, "", "explain", "../fixtures/aggregate.yaml", "--overview"); !strings.HasPrefix(out, "CLUSTER ") {
		t.Errorf("--overview on aggregate.yaml:\n%s", out)
	}
}

// --details and -o json are what explain printed before the overview
// (the golden files were written by the previous release, not -update).
func TestExplainDetailsUnchanged(t *testing.T) {
	for _, c := range []struct {
		file string
		args []string
	}{
		{"mesh.details.txt", []string{"explain", mesh, "--details"}},
		{"mesh.json", []string{"-o", "json", "explain", mesh}},
		{"mesh.json", []string{"-o", "json", "explain", mesh, "--overview"}},
	} {
		out, errs, code := run(t, "", c.args...)
		want, err := os.ReadFile("testdata/overview/" + c.file)
		if code != 0 || err != nil || out != string(want) {
			t.Errorf("%v: exit %d %v %s: output differs from %s", c.args, code, err, errs, c.file)
		}
	}
}

// --cluster takes exact names and path.Match patterns, repeatable; a
// cluster matched twice is explained once, in file order per pattern.
func TestClusterGlobs(t *testing.T) {
	heads := func(args ...string) []string {
		out, errs, code := run(t, "", append([]string{"-o", "json", "explain", mesh}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var names []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, `      "name": "`) {
				names = append(names, strings.TrimSuffix(strings.TrimPrefix(l, `      "name": "`), `",`))
			}
		}
		return names
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", "reviews"}, "reviews"},
		{[]string{"-c", "r*"}, "ratings reviews"},
		{[]string{"-c", "re*", "-c", "r*"}, "reviews ratings"},
		{[]string{"-c", "?uth", "-c", "s[e]*"}, "auth sessions search"},
	} {
		if got := strings.Join(heads(c.args...), " "); got != c.want {
			t.Errorf("%v selects %q, want %q", c.args, got, c.want)
		}
	}
	for _, c := range []struct{ arg, want string }{
		{"revews", `--cluster "revews": no such cluster in ../fixtures/overview/mesh.yaml; near: reviews; the clusters are: auth,`},
		{"x*", `--cluster "x*": no such cluster in`},
		{"[", `--cluster "[": not a valid pattern`},
	} {
		_, errs, code := run(t, "", "explain", mesh, "-c", c.arg)
		if code != ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("-c %s: exit %d %q, want usage error %q", c.arg, code, errs, c.want)
		}
	}
}
