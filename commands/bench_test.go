package commands

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/fixtures/gen"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/encoding/protojson"
)

// End-to-end benchmarks: lbctl's commands in-process next to the parse
// floor, a bare protojson.Unmarshal of the same bytes into go-control-plane
// protos, in the same run. Inputs are generated here (BENCHMARKS.md).

func writeBench(b *testing.B, name string, data []byte) string {
	p := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

func runBench(b *testing.B, args ...string) {
	b.Helper()
	var errb bytes.Buffer
	if code := Main(append([]string{"lbctl"}, args...), strings.NewReader(""), io.Discard, &errb); code > 1 {
		b.Fatalf("lbctl %v: exit %d: %s", args, code, errb.String())
	}
}

func BenchmarkConfigDump10k(b *testing.B) {
	data := gen.Dump(10000)
	path := writeBench(b, "dump.json", data)
	b.Run("floor-protojson", func(b *testing.B) {
		cmdutil.EndStartHeap() // the floor runs with the collector's defaults
		for b.Loop() {
			var d adminv3.ConfigDump
			if err := protojson.Unmarshal(data, &d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("explain-json", func(b *testing.B) {
		for b.Loop() {
			runBench(b, "explain", "-o", "json", path)
		}
	})
	b.Run("explain-one-cluster", func(b *testing.B) {
		for b.Loop() {
			runBench(b, "explain", "-o", "json", "--cluster", "svc-05003", path)
		}
	})
	b.Run("lint", func(b *testing.B) {
		for b.Loop() {
			runBench(b, "lint", path)
		}
	})
	// Issue 30: the text overview within 1.5x lint's time on the same dump.
	b.Run("explain-overview", func(b *testing.B) {
		for b.Loop() {
			runBench(b, "explain", path)
		}
	})
}

func BenchmarkOneClusterHosts(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		for _, policy := range gen.Policies {
			if n > 10000 && policy != "RING_HASH" && policy != "MAGLEV" && policy != "ROUND_ROBIN" {
				continue
			}
			data := gen.One(policy, n)
			path := writeBench(b, "one.json", data)
			name := fmt.Sprintf("hosts=%d/%s", n, policy)
			b.Run(name+"/floor-protojson", func(b *testing.B) {
				cmdutil.EndStartHeap()
				for b.Loop() {
					var c clusterv3.Cluster
					if err := protojson.Unmarshal(data, &c); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/explain-json", func(b *testing.B) {
				for b.Loop() {
					runBench(b, "explain", "-o", "json", path)
				}
			})
		}
	}
}

// Start-up work a tiny input pays (the process floor is measured with
// hyperfine, BENCHMARKS.md).
func BenchmarkTinyExplain(b *testing.B) {
	for b.Loop() {
		runBench(b, "explain", "../fixtures/aggregate.yaml")
	}
}

// genSmallYAML is a small cluster file as people write them.
func genSmallYAML(i int) []byte {
	return fmt.Appendf(nil, `name: svc-%d
type: STATIC
connect_timeout: 1s
lb_policy: %s
load_assignment:
  cluster_name: svc-%d
  endpoints:
  - locality: {zone: z1}
    lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.%d.1, port_value: 80}}}
    - endpoint: {address: {socket_address: {address: 10.0.%d.2, port_value: 80}}}
      load_balancing_weight: 2
`, i, gen.Policies[i%len(gen.Policies)], i, i%250, i%250)
}

func BenchmarkLint1000Files(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%04d.yaml", i)), genSmallYAML(i), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		runBench(b, "lint", dir)
	}
}

// TestWriteBenchInputs writes the generated inputs for timing the binary
// (BENCHMARKS.md): LBCTL_BENCH_DIR=/tmp/lbctl-bench go test -run TestWriteBenchInputs ./commands
func TestWriteBenchInputs(t *testing.T) {
	dir := os.Getenv("LBCTL_BENCH_DIR")
	if dir == "" {
		t.Skip("LBCTL_BENCH_DIR not set")
	}
	files := map[string][]byte{"dump-10k.json": gen.Dump(10000), "tests-1000.yaml": thousandTests()}
	for _, n := range []int{10000, 100000} {
		for _, p := range gen.Policies {
			files[fmt.Sprintf("hosts-%d-%s.json", n, p)] = gen.One(p, n)
		}
	}
	for i := range 1000 {
		files[filepath.Join("files-1000", fmt.Sprintf("c%04d.yaml", i))] = genSmallYAML(i)
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
