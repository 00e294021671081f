package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const aggBad = `name: agg
connect_timeout: 1s
lb_policy: CLUSTER_PROVIDED
cluster_type:
  name: envoy.clusters.aggregate
  typed_config:
    "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
    clusters: [web, typo-secondary]
---
name: web
connect_timeout: 1s
type: STATIC
load_assignment:
  cluster_name: web
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
`

// a second aggregate with an unknown child, appended later.
const aggMore = `---
name: agg2
connect_timeout: 1s
lb_policy: CLUSTER_PROVIDED
cluster_type:
  name: envoy.clusters.aggregate
  typed_config:
    "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
    clusters: [web, nowhere]
`

func TestLintBaseline(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("a.yaml", []byte(aggBad), 0o644)
	code, _, errs := termRun(t, nil, "lint", "a.yaml", "--fail-on", "warning", "--write-baseline", "base.json")
	if code != 0 || errs != "lbctl: recorded 1 findings in base.json\n" {
		t.Fatalf("--write-baseline: exit %d, %q", code, errs)
	}
	if code, out, _ := termRun(t, nil, "lint", "a.yaml", "--fail-on", "warning", "--baseline", "base.json"); code != 0 || out != "" {
		t.Errorf("--baseline: exit %d, %q", code, out)
	}
	// A new finding is reported; the recorded one stays silent even
	// though lines moved.
	os.WriteFile("a.yaml", []byte("# moved\n"+aggBad+aggMore), 0o644)
	code, out, _ := termRun(t, nil, "lint", "a.yaml", "--fail-on", "warning", "--baseline", "base.json")
	if code != ExitFindings || strings.Count(out, "LB1203") != 1 || !strings.Contains(out, `child cluster "nowhere"`) {
		t.Errorf("--baseline after a change: exit %d\n%s", code, out)
	}
	if code, _, errs := termRun(t, nil, "lint", "a.yaml", "--baseline", "a.yaml"); code != ExitInput || !strings.Contains(errs, "not an lbctl baseline") {
		t.Errorf("bad baseline: exit %d, %q", code, errs)
	}
}

func TestLintNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	gitRun := func(args ...string) {
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gitRun("init", "-q")
	os.MkdirAll("envoy", 0o755)
	os.WriteFile(filepath.Join("envoy", "a.yaml"), []byte(aggBad), 0o644)
	gitRun("add", ".")
	gitRun("commit", "-qm", "one")
	os.WriteFile(filepath.Join("envoy", "a.yaml"), []byte(aggBad+aggMore), 0o644)
	os.WriteFile(filepath.Join("envoy", "b.yaml"), []byte(strings.ReplaceAll(aggMore, "agg2", "agg3")[4:]), 0o644) // untracked: all new
	code, out, errs := termRun(t, nil, "lint", "envoy", "--fail-on", "warning", "--new-from-rev", "HEAD")
	if code != ExitFindings || strings.Count(out, "LB1203") != 2 || strings.Contains(out, "typo-secondary") ||
		!strings.Contains(out, "envoy/a.yaml:26:") || !strings.Contains(out, "envoy/b.yaml:") {
		t.Errorf("--new-from-rev HEAD: exit %d, %s\n%s", code, errs, out)
	}
	// From a subdirectory, paths still resolve against the repository.
	t.Chdir(filepath.Join(dir, "envoy"))
	if code, out, _ := termRun(t, nil, "lint", "a.yaml", "--fail-on", "warning", "--new-from-rev", "HEAD"); code != ExitFindings || strings.Count(out, "LB1203") != 1 {
		t.Errorf("in a subdirectory: exit %d\n%s", code, out)
	}
	if code, _, errs := termRun(t, nil, "lint", "a.yaml", "--new-from-rev", "nosuchrev"); code != ExitUsage || !strings.HasPrefix(errs, "lbctl: --new-from-rev nosuchrev: git diff:") {
		t.Errorf("bad rev: exit %d, %q", code, errs)
	}
}
