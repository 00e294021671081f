package commands

import "testing"

// TestLintTargetGRPC: --target grpc exits 1 on a config proxyless gRPC
// NACKs (a STRICT_DNS cluster, GRPC-CLUSTER-TYPE) that Envoy accepts, and 0
// on a clean EDS cluster; --target both reports it too.
func TestLintTargetGRPC(t *testing.T) {
	nack := "../fixtures/lint/LB1701-bad.yaml"
	clean := "../fixtures/lint/LB1701-good.yaml"
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"lint", "--target", "grpc", nack}, ExitFindings},
		{[]string{"lint", "--target", "both", nack}, ExitFindings},
		{[]string{"lint", "--target", "envoy", nack}, ExitOK},
		{[]string{"lint", "--target", "grpc", clean}, ExitOK},
		{[]string{"lint", "--target", "grpc", "../fixtures/lint/LB1208-bad.yaml"}, ExitFindings},
		{[]string{"lint", "--target", "both", "../fixtures/lint/LB1208-good.yaml"}, ExitOK},
	}
	for _, c := range cases {
		if code, out, stderr := runLBCTL(c.args...); code != c.want {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.want, out, stderr)
		}
	}
}
