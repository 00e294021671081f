package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestDump prints the findings for the files in $LBCTL_LINT_DUMP
// (space-separated), for writing fixtures; it skips otherwise.
func TestDump(t *testing.T) {
	files := strings.Fields(os.Getenv("LBCTL_LINT_DUMP"))
	if len(files) == 0 {
		t.Skip("LBCTL_LINT_DUMP not set")
	}
	for _, f := range files {
		_, inputs := fixture(t, f)
		for _, fd := range lintFiles(inputs) {
			t.Logf("%s: %s %s %s [%s]", fd.Pos, fd.Severity, fd.Rule, fd.Message, fd.Name)
		}
		_ = config.Pos{}
	}
}
