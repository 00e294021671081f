package config

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/encoding/protojson"
)

// The loader beside its floor, a bare protojson.Unmarshal of the same bytes,
// on the inputs commands/bench_test.go generates (same shapes).

func benchCluster(b *strings.Builder, name, policy string, hosts, seed int, typed bool) {
	b.WriteString(`{`)
	if typed {
		b.WriteString(`"@type":"type.googleapis.com/envoy.config.cluster.v3.Cluster",`)
	}
	fmt.Fprintf(b, `"name":%q,"type":"STATIC","connect_timeout":"1s","lb_policy":%q,"load_assignment":{"cluster_name":%q,`, name, policy, name)
	b.WriteString(`"endpoints":[{"locality":{"zone":"z1"},"lb_endpoints":[`)
	for i := range hosts {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `{"endpoint":{"address":{"socket_address":{"address":"10.%d.%d.%d","port_value":8080}}},"load_balancing_weight":%d}`,
			(seed+i)>>16&255, (i>>8)&255, i&255, 1+i%3)
	}
	b.WriteString(`]}]}}`)
}

func benchDump(n int) []byte {
	policies := []string{"ROUND_ROBIN", "LEAST_REQUEST", "RING_HASH", "MAGLEV", "RANDOM"}
	var b strings.Builder
	b.WriteString(`{"configs":[{"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump","version_info":"1","dynamic_active_clusters":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"version_info":"1","cluster":`)
		benchCluster(&b, fmt.Sprintf("svc-%05d", i), policies[i%len(policies)], 3, i, true)
		b.WriteString(`}`)
	}
	b.WriteString(`]},{"@type":"type.googleapis.com/envoy.admin.v3.RoutesConfigDump","dynamic_route_configs":[{"route_config":{"@type":"type.googleapis.com/envoy.config.route.v3.RouteConfiguration","name":"mesh","virtual_hosts":[{"name":"all","domains":["*"],"routes":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"match":{"prefix":"/svc-%05d"},"route":{"cluster":"svc-%05d"}}`, i, i)
	}
	b.WriteString("]}]}}]}]}\n")
	return []byte(b.String())
}

func BenchmarkLoad(b *testing.B) {
	var one strings.Builder
	benchCluster(&one, "big", "MAGLEV", 10000, 0, false)
	one.WriteByte('\n')
	cases := []struct {
		name  string
		data  []byte
		floor func([]byte) error
	}{
		{"hosts=10000", []byte(one.String()), func(d []byte) error { return protojson.Unmarshal(d, &clusterv3.Cluster{}) }},
		{"dump10k", benchDump(10000), func(d []byte) error { return protojson.Unmarshal(d, &adminv3.ConfigDump{}) }},
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
	benchCluster(&one, "big", "MAGLEV", 100000, 0, false)
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
		benchCluster(&one, "c", "RANDOM", n, 0, false)
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
