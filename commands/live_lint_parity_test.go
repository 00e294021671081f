package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintAdminEqualsFiles: lint --admin URL and lint of the same
// config_dump and /clusters files give the same findings, health joined
// the same way (here 3 of 4 hosts unhealthy: P0 in panic, LB1901).
func TestLintAdminEqualsFiles(t *testing.T) {
	dump, clusters := liveFixtures(t)
	sick := strings.Replace(string(clusters), `"health_status": {"eds_health_status": "HEALTHY"}},`, `"health_status": {"eds_health_status": "UNHEALTHY"}},`, 2)
	dir := t.TempDir()
	df, cf := filepath.Join(dir, "config_dump.json"), filepath.Join(dir, "clusters.json")
	if err := os.WriteFile(df, dump, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cf, []byte(sick), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, _ := adminServer(t, "", dump, []byte(sick))
	_, viaAdmin, errs := runLBCTL("lint", "--admin", srv.URL, "--fail-on", "none", "--format", "json")
	_, viaFiles, errs2 := runLBCTL("lint", df, cf, "--fail-on", "none", "--format", "json")
	if !strings.Contains(viaAdmin, "LB1901") {
		t.Errorf("--admin lacks the panic finding:\n%s\n%s", viaAdmin, errs)
	}
	if norm(viaAdmin) != norm(viaFiles) {
		t.Errorf("findings differ\n--admin:\n%s\nfiles:\n%s\n%s", viaAdmin, viaFiles, errs2)
	}
}

// norm drops what names the source (file paths, URLs), keeping the rest.
func norm(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, `"file"`) || strings.Contains(l, `"snippet"`) || strings.Contains(l, `"line"`) || strings.Contains(l, `"column"`) {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
