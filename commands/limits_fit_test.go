package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/cmdutil"
)

// Under an address-space limit (ulimit -v) the default --max-input is
// lowered to what a run can read there, so a large file is refused with
// an error naming it instead of the runtime's out-of-memory crash; an
// explicit --max-input is honoured as given.
func TestMaxInputFitsAddressSpace(t *testing.T) {
	env := cmdutil.Env{Getenv: only(nil), AddressSpaceFit: func() int64 { return 100 }}
	f := filepath.Join(t.TempDir(), "big.yaml")
	os.WriteFile(f, []byte("name: c\ntype: STATIC\nload_assignment: {cluster_name: c, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}]}]}\n"), 0o644)
	_, errs, code := runEnv("", env, "explain", f)
	if code != ExitInput || !strings.Contains(errs, "big.yaml: larger than 100 bytes (lowered to fit the address-space limit (ulimit -v)") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, errs, code := runEnv("", env, "explain", f, "--max-input", "1MiB"); code != 0 {
		t.Errorf("--max-input given: exit %d: %s", code, errs)
	}
}
