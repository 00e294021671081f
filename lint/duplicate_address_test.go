package lint

import (
	"path/filepath"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestDuplicateAddressByType: only EDS de-duplicates hosts
// (BaseDynamicClusterImpl::updateDynamicHostList); StaticClusterImpl
// registers every lb_endpoint, so a STATIC repeat is information.
func TestDuplicateAddressByType(t *testing.T) {
	fs := lintFiles([]config.Input{{Path: filepath.Join(fixtureDir, "LB1605-bad.yaml")}}, TargetEnvoy)
	want := map[int]Severity{14: SevWarning, 26: SevInfo}
	n := 0
	for _, f := range fs {
		if f.Rule != "LB1605" {
			continue
		}
		n++
		if f.Severity != want[f.Pos.Line] {
			t.Errorf("line %d: %s, want %s (%s)", f.Pos.Line, f.Severity, want[f.Pos.Line], f.Message)
		}
	}
	if n != len(want) {
		t.Errorf("%d LB1605 findings, want %d", n, len(want))
	}
}
