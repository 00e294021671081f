package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/fixtures/gen"
)

// TestLintAdminEqualsFiles: lint --admin URL and lint of the same
// config_dump and /clusters files give the same findings, health joined
// the same way (here 3 of 4 hosts unhealthy: P0 in panic, LB1901).
func TestLintAdminEqualsFiles(t *testing.T) {
	dump, clusters := liveFixtures(t)
	sick := strings.Replace(string(clusters), `"health_status": {"eds_health_status": "HEALTHY"}},`, `"health_status": {"eds_health_status": "UNHEALTHY"}},`, 2)
	lintParity(t, dump, []byte(sick), "LB1901")
}

// TestLintAdminEqualsFilesGenerated: the same on the generated 10k-cluster
// dump, every 7th cluster with 2 of its 3 hosts failing.
func TestLintAdminEqualsFilesGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("10k clusters")
	}
	const n = 10000
	var b strings.Builder
	b.WriteString(`{"cluster_statuses":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"svc-%05d","host_statuses":[`, i)
		for j := range 3 {
			k := i*3 + j
			status := "HEALTHY"
			if i%7 == 0 && j > 0 {
				status = "UNHEALTHY"
			}
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"address":{"socket_address":{"address":"10.%d.%d.%d","port_value":8080}},"health_status":{"eds_health_status":%q}}`, k>>16&255, k>>8&255, k&255, status)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	lintParity(t, gen.Dump(n), []byte(b.String()), "LB1901")
}

// lintParity lints dump and clusters through a fake admin server and as
// two files of one directory, and wants the same findings, among them rule.
func lintParity(t *testing.T, dump, sick []byte, rule string) {
	t.Helper()
	dir := t.TempDir()
	df, cf := filepath.Join(dir, "config_dump.json"), filepath.Join(dir, "clusters.json")
	if err := os.WriteFile(df, dump, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cf, sick, 0o600); err != nil {
		t.Fatal(err)
	}
	srv, _ := adminServer(t, "", dump, sick)
	_, viaAdmin, errs := runLBCTL("lint", "--admin", srv.URL, "--fail-on", "none", "--format", "json")
	_, viaFiles, errs2 := runLBCTL("lint", df, cf, "--fail-on", "none", "--format", "json")
	if !strings.Contains(viaAdmin, rule) {
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
