package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

const suppressed = `name: web
connect_timeout: 1s
type: STATIC
load_assignment:
  cluster_name: web
  policy:
    # lbctl:ignore LB1505 deliberate spill-over
    overprovisioning_factor: 50
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
`

func lintString(t *testing.T, src string, opts Options) []Finding {
	cfg, _ := config.LoadBytes("x.yaml", []byte(src), "")
	return Run(cfg, opts)
}

func TestSuppressionAndDisable(t *testing.T) {
	if fs := lintString(t, suppressed, Options{}); len(fs) != 0 {
		t.Errorf("suppressed finding reported: %+v", fs)
	}
	// Without the comment the finding is there, at the value.
	plain := `name: web
connect_timeout: 1s
type: STATIC
load_assignment:
  cluster_name: web
  policy: {overprovisioning_factor: 50}
`
	fs := lintString(t, plain, Options{})
	if len(fs) != 1 || fs[0].Rule != "LB1505" || fs[0].Pos.Line != 6 || fs[0].Pos.Col != 37 {
		t.Errorf("got %+v", fs)
	}
	if fs := lintString(t, plain, Options{Disable: []string{"overprovisioning-below-100"}}); len(fs) != 0 {
		t.Errorf("disabled rule reported: %+v", fs)
	}
	// A suppression far down a file, after a long run of blank lines, is
	// still read.
	late := strings.Replace(suppressed, "  policy:\n", "\n"+strings.Repeat("\n", 80)+"  policy:\n", 1)
	if fs := lintString(t, late, Options{}); len(fs) != 0 {
		t.Errorf("suppression after blank lines ignored: %+v", fs)
	}
	// A suppression for a disabled rule is not reported as unused.
	if fs := lintString(t, suppressed, Options{Disable: []string{"LB1505"}}); len(fs) != 0 {
		t.Errorf("got %+v", fs)
	}
}

func TestFindConfig(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if fc, err := FindConfig(sub, 1<<20); err != nil || (fc != nil && filepath.Dir(fc.Path) != dir) {
		// A .lbctl.yaml above the temp dir would be found; only ours matters.
		t.Logf("found %v %v", fc, err)
	}
	os.WriteFile(filepath.Join(dir, ".lbctl.yaml"), []byte("disable: [LB1504, hash-no-policy]\nfail-on: warning\n"), 0o644)
	fc, err := FindConfig(sub, 1<<20)
	if err != nil || fc == nil || len(fc.Disable) != 2 || fc.FailOn != "warning" {
		t.Fatalf("FindConfig: %+v %v", fc, err)
	}
	os.WriteFile(filepath.Join(dir, ".lbctl.yaml"), []byte("disable: [LB9999]\n"), 0o644)
	if _, err := FindConfig(sub, 1<<20); err == nil {
		t.Errorf("unknown rule in .lbctl.yaml accepted")
	}
	os.WriteFile(filepath.Join(dir, ".lbctl.yaml"), []byte("fail_on: warning\n"), 0o644)
	if _, err := FindConfig(sub, 1<<20); err == nil {
		t.Errorf("unknown key in .lbctl.yaml accepted")
	}
}

// TestEnvoyMessages: PGV findings carry the messages Envoy's own tests
// expect (ring_hash_lb_test / RingHash config: "value must be inside range
// [1, 8388608]"; maglev: table_size lte 5000011).
func TestEnvoyMessages(t *testing.T) {
	cfg, _ := config.Load([]config.Input{{Path: fixtureDir + "/LB1002-bad.yaml"}}, "")
	fs := Run(cfg, Options{})
	if len(fs) != 1 || fs[0].Message != "load_balancing_policy.policies[0].typed_extension_config.typed_config.minimum_ring_size: value must be inside range [1, 8388608]" {
		t.Errorf("got %+v", fs)
	}
}

// BenchmarkLint1000 lints a directory of 1,000 cluster files (load + all
// rules): the acceptance bound is 2 s.
func BenchmarkLint1000(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 1000; i++ {
		src := fmt.Sprintf(`name: c%d
connect_timeout: 1s
type: STATIC
lb_policy: RING_HASH
ring_hash_lb_config: {minimum_ring_size: 1024}
common_lb_config: {healthy_panic_threshold: {value: 0}}
load_assignment:
  cluster_name: c%d
  endpoints:
  - locality: {zone: a}
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.%d.1, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.%d.2, port_value: 80}}}
  - priority: 1
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.1.%d.1, port_value: 80}}}
`, i, i, i%250, i%250, i%250)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%04d.yaml", i)), []byte(src), 0o644)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cfg, _ := config.Load([]config.Input{{Path: dir}}, "")
		if len(cfg.Clusters) != 1000 {
			b.Fatal(len(cfg.Clusters))
		}
		Run(cfg, Options{})
	}
}
