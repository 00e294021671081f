package commands

import (
	"strings"
	"testing"
	"time"
)

// Numeric flag values are parsed strictly: NaN, infinities, out-of-range
// and negative values are usage errors (exit 2) naming the flag.
func TestNumericFlagsStrict(t *testing.T) {
	const f = "../fixtures/priority-two-levels.yaml"
	const h = "../fixtures/diff/hash/"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", f, "--set-health", "backend=NaN"}, "--set-health"},
		{[]string{"explain", f, "--set-health", "backend=Inf"}, "--set-health"},
		{[]string{"explain", f, "--set-health", "backend=-1"}, "--set-health"},
		{[]string{"explain", f, "--set-health", "backend=1e400"}, "--set-health"},
		{[]string{"explain", f, "--set-health", "backend=101"}, "--set-health"},
		{[]string{"explain", f, "--set-health", "backend/NaN=5"}, "--set-health"},
		{[]string{"sweep", f, "--cluster", "backend", "--step", "NaN"}, "--step"},
		{[]string{"sweep", f, "--cluster", "backend", "--step", "Inf"}, "--step"},
		{[]string{"sweep", f, "--cluster", "backend", "--step", "-1"}, "--step"},
		{[]string{"sweep", f, "--cluster", "backend", "--step", "1e400"}, "step"},
		{[]string{"sweep", f, "--cluster", "backend", "--priority", "NaN"}, "--priority"},
		{[]string{"explain", f, "--active-requests", "10.0.0.1:80=-1"}, "--active-requests"},
		{[]string{"explain", f, "--active-requests", "10.0.0.1:80=NaN"}, "--active-requests"},
		{[]string{"explain", f, "--host-age", "10.0.0.1:80=-1s"}, "--host-age"},
		{[]string{"explain", f, "--host-weight", "10.0.0.1:80=1e400"}, "--host-weight"},
		{[]string{"explain", "--max-input", "NaN", f}, "--max-input"},
		{[]string{"explain", "--max-input", "-1", f}, "--max-input"},
		{[]string{"explain", "--timeout", "-1s", "--admin", "http://127.0.0.1:1"}, "--timeout"},
		{[]string{"explain", "--watch", "-1s", "--admin", "http://127.0.0.1:1"}, "--watch"},
		{[]string{"hash", h + "old.yaml", "--hash", "NaN"}, "--hash"},
		{[]string{"hash", h + "old.yaml", "--hash", "-1"}, "--hash"},
		{[]string{"diff", h + "old.yaml", h + "new.yaml", "--fail-on-shift", "NaN"}, "--fail-on-shift"},
		{[]string{"diff", h + "old.yaml", h + "new.yaml", "--fail-on-remap", "Inf"}, "--fail-on-remap"},
		{[]string{"diff", h + "old.yaml", h + "new.yaml", "--fail-on-remap", "101"}, "--fail-on-remap"},
	} {
		out, errOut, code := run(t, "", c.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %q; want exit 2 naming %s", c.args, code, out, errOut, c.want)
		}
	}
}

// A --step finer than one host shows every host count, says so once, and
// ends fast (it used to loop 100/step times).
func TestSweepTinyStepEndsFast(t *testing.T) {
	const f = "../fixtures/priority-two-levels.yaml"
	start := time.Now()
	out, errOut, code := run(t, "", "sweep", f, "--cluster", "backend", "--step", "1e-9")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	want, _, _ := run(t, "", "sweep", f, "--cluster", "backend")
	if code != ExitOK || out != want || strings.Count(errOut, "--step 1e-09 is less than one host") != 1 {
		t.Errorf("exit %d, stderr %q, stdout %q, want %q", code, errOut, out, want)
	}
}
