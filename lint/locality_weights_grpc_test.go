package lint

import (
	"path/filepath"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// gRPC uses locality weights (gRFC A52), so --target grpc does not call
// them ignored (issue 14).
func TestLocalityWeightsNotIgnoredForGRPC(t *testing.T) {
	in := []config.Input{{Path: filepath.Join(fixtureDir, "LB1601-bad.yaml")}}
	for _, f := range lintFiles(in, TargetGRPC) {
		if f.Rule == "LB1601" {
			t.Errorf("LB1601 for gRPC: %s", f.Message)
		}
	}
	n := 0
	for _, f := range lintFiles(in, TargetEnvoy) {
		if f.Rule == "LB1601" {
			n++
		}
	}
	if n == 0 {
		t.Error("LB1601 no longer reported for Envoy")
	}
}
