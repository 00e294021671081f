package config

import (
	"fmt"
	"github.com/lbctl/lbctl/fixtures/gen"
	"runtime"
	"strings"
	"testing"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/encoding/protojson"
)

// The loader beside its floor, a bare protojson.Unmarshal of the same bytes,
// on the inputs commands/bench_test.go generates (same shapes).

func BenchmarkLoad(b *testing.B) {
	var one strings.Builder
	gen.Cluster(&one, "big", "MAGLEV", 10000, 0, false)
	one.WriteByte('\n')
	cases := []struct {
		name  string
		data  []byte
		floor func([]byte) error
	}{
		{"hosts=10000", []byte(one.String()), func(d []byte) error { return protojson.Unmarshal(d, &clusterv3.Cluster{}) }},
		{"dump10k", gen.Dump(10000), func(d []byte) error { return protojson.Unmarshal(d, &adminv3.ConfigDump{}) }},
	}
	for _, c := range cases {
		b.Run(c.name+"/floor-protojson", func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if err := c.floor(c.data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/load", func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				cfg, err := Load([]Input{{Path: "bench.json", Data: c.data}}, "")
				if err != nil || len(cfg.Clusters) == 0 {
					b.Fatalf("load: %v", err)
				}
			}
		})
	}
}

// BenchmarkLoadLive reports what the loader keeps alive after loading a
// 100k-host cluster (the explain -o json peak starts from it): heap in use
// after a collection, with the Config still referenced.
func BenchmarkLoadLive(b *testing.B) {
	var one strings.Builder
	gen.Cluster(&one, "big", "MAGLEV", 100000, 0, false)
	data := []byte(one.String())
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cfg, err := Load([]Input{{Path: "bench.json", Data: data}}, "")
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "live-MB")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6, "alloc-MB")
		runtime.KeepAlive(cfg)
	}
}

// BenchmarkFanOut measures where splitting a list starts to pay: a cluster
// of n hosts, decoded sequentially and split across cores.
func BenchmarkFanOut(b *testing.B) {
	defer func(p bool, m int) { parallelDecode, parallelMin = p, m }(parallelDecode, parallelMin)
	for _, n := range []int{32, 128, 512, 2048} {
		var one strings.Builder
		gen.Cluster(&one, "c", "RANDOM", n, 0, false)
		data := []byte(one.String())
		for _, par := range []bool{false, true} {
			b.Run(fmt.Sprintf("hosts=%d/parallel=%v", n, par), func(b *testing.B) {
				parallelDecode, parallelMin = par, n
				for b.Loop() {
					if _, err := Load([]Input{{Path: "c.json", Data: data}}, ""); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
