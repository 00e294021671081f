package help

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// TestRootTemplate: urfave/cli's root help template still has the VERSION
// block as versionBlock spells it, and RootTemplate is without it.
func TestRootTemplate(t *testing.T) {
	if !strings.Contains(cli.RootCommandHelpTemplate, versionBlock) {
		t.Fatal("urfave/cli's root help template has no VERSION block as written in versionBlock")
	}
	if strings.Contains(RootTemplate, "VERSION") {
		t.Error("RootTemplate still has a VERSION section")
	}
}
