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
