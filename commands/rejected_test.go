package commands

import (
	"strings"
	"testing"
)

// A configuration Envoy rejects at load is an input error (exit 3) at the
// offending field, in every semantics that includes Envoy's and every
// output format (contract: What-if inputs for LB policies). gRPC accepts
// wrr_locality with any child, so --semantics grpc still answers.
func TestRejectedConfigExit3(t *testing.T) {
	const f = "../fixtures/lint/LB1016-bad.yaml"
	for _, args := range [][]string{
		{"explain", f},
		{"explain", "-o", "json", f},
		{"explain", "--semantics", "both", f},
		{"explain", "--cluster", "wrr", f},
		{"sweep", "--cluster", "wrr", f},
	} {
		out, errOut, code := run(t, "", args...)
		if code != ExitInput || out != "" {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
		if !strings.Contains(errOut, "LB1016-bad.yaml:12:15: cluster \"wrr\": Envoy rejects this cluster: wrr_locality: ") {
			t.Errorf("%v: stderr %q", args, errOut)
		}
	}
	_, errOut, _ := run(t, "", "explain", f)
	if !strings.Contains(errOut, "LB1016-bad.yaml:24:21: cluster \"lr\"") {
		t.Errorf("second rejected cluster not reported: %q", errOut)
	}
	if _, errOut, code := run(t, "", "explain", "--semantics", "grpc", "--cluster", "wrr", f); code != ExitOK {
		t.Errorf("--semantics grpc: exit %d: %s", code, errOut)
	}
}

// The text overview lists a cluster Envoy rejects as a row flagged
// rejected, among those needing attention, and explain is still an input
// error: the rejection on stderr, exit 3 (issue 30). --details, -o json and
// --cluster print nothing, as before.
func TestOverviewListsRejected(t *testing.T) {
	const bad = "../fixtures/lint/LB1016-bad.yaml"
	out, errOut, code := run(t, "", "explain", mesh, bad)
	if code != ExitInput {
		t.Fatalf("exit %d, want %d: %s", code, ExitInput, errOut)
	}
	golden(t, "overview/mesh-rejected.overview.txt", out)
	for _, want := range []string{
		"lr         LEAST_REQUEST        -  -             -           -  rejected",
		"wrr        WRR_LOCALITY         -  -             -           -  rejected",
		"15 clusters, 6 needing attention.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("overview lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(out, "\n")
	for i, name := range []string{"checkout", "inventory", "lr", "payments", "sessions", "wrr", "auth"} {
		if !strings.HasPrefix(lines[2+i], name+" ") {
			t.Errorf("row %d is %q, want %s", i, lines[2+i], name)
		}
	}
	for _, want := range []string{`LB1016-bad.yaml:12:15: cluster "wrr": Envoy rejects this cluster`, `LB1016-bad.yaml:24:21: cluster "lr"`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %q", want, errOut)
		}
	}
	for _, args := range [][]string{
		{"explain", mesh, bad, "--details"},
		{"-o", "json", "explain", mesh, bad},
		{"-o", "json", "explain", mesh, bad, "--overview"},
		{"explain", mesh, bad, "--cluster", "wrr"},
	} {
		out, errOut, code := run(t, "", args...)
		if code != ExitInput || out != "" || !strings.Contains(errOut, `cluster "wrr": Envoy rejects`) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
