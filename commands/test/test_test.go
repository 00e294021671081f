package test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/expect"
	"github.com/lbctl/lbctl/commands/cmdutil"
)

const fx = "../../fixtures/"

// options injects the reports the command wires, over fixtures.
func options(t *testing.T, format string, tests ...string) (Options, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cfg, err := config.Load([]config.Input{{Path: fx + "priority-two-levels.yaml"}, {Path: fx + "aggregate.yaml"}, {Path: fx + "hash/ring-basic.yaml"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	return Options{
		Tests:        tests,
		Format:       format,
		InitClusters: expect.InitClusters(cfg, cfg.Clusters),
		Reports:      Reports(cfg),
		Stdout:       &out, Stderr: &errOut,
	}, &out, &errOut
}

func TestText(t *testing.T) {
	opt, out, errOut := options(t, "", fx+"tests/failing.yaml")
	if code := Run(opt); code != ExitFail || errOut.Len() > 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	want := `FAIL P0 should keep 90%
  priority_load.0: got 70, want >= 90  (../../fixtures/tests/failing.yaml:6:24)
PASS no panic anywhere
FAIL hosts evenly loaded
  max_host_share: got 0.14, want <= 0.1  (../../fixtures/tests/failing.yaml:15:21)
  budget.1.before_total_panic: got null, want < 100  (../../fixtures/tests/failing.yaml:16:38)
1 passed, 2 failed
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	opt, out, _ = options(t, "text", fx+"tests/ok.yaml")
	if code := Run(opt); code != ExitPass || !strings.HasSuffix(out.String(), "PASS ring moves about a third without one host\n4 passed, 0 failed\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestJSON(t *testing.T) {
	opt, out, _ := options(t, "json", fx+"tests/failing.yaml")
	if code := Run(opt); code != ExitFail {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Tests []struct {
			Name     string
			Passed   *bool
			At       string
			Failures []struct {
				Expect, Want, At string
				Got              any
			}
			NotChecked []string `json:"not_checked"`
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	f := got.Tests[0].Failures[0]
	if len(got.Tests) != 3 || *got.Tests[0].Passed || f.Expect != "priority_load.0" || f.Want != ">= 90" || f.Got != 70.0 ||
		f.At != fx+"tests/failing.yaml:6:24" || got.Tests[0].NotChecked == nil || got.Summary["failed"] != 2 || got.Summary["passed"] != 1 {
		t.Errorf("%s", out)
	}
	if !strings.Contains(out.String(), `"want": ">= 90"`) {
		t.Errorf("comparisons are written as is:\n%s", out)
	}
}

// Errors are input errors (exit 3), one per line at TESTS:LINE:COL; a bad
// --format is a usage error.
func TestExitCodes(t *testing.T) {
	opt, out, errOut := options(t, "json", fx+"tests/broken/unknown-names.yaml", fx+"tests/broken/duplicate.yaml")
	if code := Run(opt); code != ExitInput || out.Len() > 0 {
		t.Fatalf("exit %d, stdout %s", code, out)
	}
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], fx+"tests/broken/duplicate.yaml:5:9: ") ||
		!strings.HasPrefix(lines[1], fx+"tests/broken/unknown-names.yaml:3:12: no cluster \"backnd\"") {
		t.Errorf("stderr:\n%s", errOut)
	}
	opt, _, errOut = options(t, "xml", fx+"tests/ok.yaml")
	if code := Run(opt); code != ExitUsage || !strings.Contains(errOut.String(), `--format "xml"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	opt, _, _ = options(t, "text", fx+"tests/nope.yaml")
	if code := Run(opt); code != ExitInput {
		t.Errorf("missing file: exit %d", code)
	}
}

// --init writes a TESTS file that passes against the same configuration.
func TestInitRoundTrip(t *testing.T) {
	opt, out, errOut := options(t, "")
	opt.Init = true
	if code := Run(opt); code != ExitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := t.TempDir() + "/init.yaml"
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opt, res, errOut := options(t, "text", path)
	if code := Run(opt); code != ExitPass {
		t.Fatalf("exit %d: %s %s\n%s", code, res, errOut, out)
	}
	// backend, aggregate_cluster, primary, secondary, tertiary, ring (+ removal), murmur (+ removal)
	if !strings.HasSuffix(res.String(), "\n9 passed, 0 failed\n") {
		t.Errorf("%s", res)
	}
}

// Reports refuses a set_health naming no cluster with the usage error
// lbctl route gives (expect checks TESTS files first; this guards any
// other caller of Reports), for request and cluster figures alike.
func TestReportsUnknownSetHealth(t *testing.T) {
	cfg, err := config.Load([]config.Input{{Path: fx + "aggregate.yaml"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	rep := Reports(cfg)
	g := expect.Given{SetHealth: []string{"nope=50"}}
	const want = "--set-health nope=50: no such cluster; the clusters are: aggregate_cluster, primary, secondary, tertiary"
	if _, err := rep.Request(expect.Request{Path: "/"}, g); err == nil || err.Error() != want || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("Request: %v", err)
	}
	if _, err := rep.Cluster("primary", g); err == nil || err.Error() != want || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("Cluster: %v", err)
	}
}
