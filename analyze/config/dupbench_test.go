package config

import (
	"fmt"
	"strings"
	"testing"
)

// repeatedBootstrap is a bootstrap of n clusters, each repeating key with
// the values first(i) and then last(i).
func repeatedBootstrap(n int, key string, first, last func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("static_resources:\n  clusters:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: c%d\n    %s: %s\n    type: STATIC\n    %s: %s\n", i, key, first(i), key, last(i))
		fmt.Fprintf(&b, "    load_assignment:\n      cluster_name: c%d\n      endpoints:\n      - lb_endpoints:\n", i)
		fmt.Fprintf(&b, "        - endpoint: {address: {socket_address: {address: 10.0.%d.%d, port_value: 80}}}\n", i/250, i%250+1)
	}
	return []byte(b.String())
}

// BenchmarkRepeatedKeys loads 800 clusters that each repeat
// connect_timeout with a different value (a reviewer measured 55 s when
// each repeat re-decoded the whole file twice).
func BenchmarkRepeatedKeys(b *testing.B) {
	data := repeatedBootstrap(800, "connect_timeout", func(int) string { return "1s" }, func(int) string { return "2s" })
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		cfg, _ := LoadBytes("bench.yaml", data, "")
		if len(cfg.Clusters) != 800 {
			b.Fatalf("%d clusters", len(cfg.Clusters))
		}
	}
}

// Repeats settled together get the messages each would get alone: the
// ones whose first value changes the load balancing are warnings naming
// the cluster and field, the others info.
func TestRepeatsSettledTogether(t *testing.T) {
	defer func(m int) { maxRepeats = m }(maxRepeats)
	maxRepeats = 1 << 30
	differs := func(i int) bool { return i%7 == 3 }
	// Every cluster repeats connect_timeout (info); every seventh also
	// repeats lb_policy (a warning).
	data := repeatedBootstrap(40, "connect_timeout", func(int) string { return "1s" }, func(int) string { return "2s" })
	for i := range 40 {
		if differs(i) {
			old := fmt.Sprintf("  - name: c%d\n", i)
			data = []byte(strings.Replace(string(data), old, old+"    lb_policy: RANDOM\n    lb_policy: ROUND_ROBIN\n", 1))
		}
	}
	cfg, _ := LoadBytes("mix.yaml", data, "")
	warn, info := 0, 0
	for _, p := range cfg.Problems {
		if p.Code != CodeDuplicateKey {
			continue
		}
		if strings.Contains(p.Msg, `"lb_policy"`) {
			warn++
			line := p.Pos.Line
			if p.Severity != SevWarning || !strings.Contains(p.Msg, "; the first value would change cluster \"c") || !strings.HasSuffix(p.Msg, " (lb_policy)") {
				t.Errorf("line %d: %v %q", line, p.Severity, p.Msg)
			}
			continue
		}
		info++
		if p.Severity != SevInfo || !strings.HasSuffix(p.Msg, "no cluster, endpoint or route lbctl reports on would differ") {
			t.Errorf("%v %q", p.Severity, p.Msg)
		}
	}
	if warn != 6 || info != 40 {
		t.Errorf("%d warnings, %d infos; want 6 and 40", warn, info)
	}
}

// Past maxRereads, repeats whose first values change something keep a
// warning saying lbctl did not check them one by one.
func TestRepeatsPastBudget(t *testing.T) {
	defer func(m int) { maxRepeats = m }(maxRepeats)
	maxRepeats = 1 << 30
	data := repeatedBootstrap(200, "lb_policy", func(int) string { return "RANDOM" }, func(int) string { return "ROUND_ROBIN" })
	cfg, _ := LoadBytes("many.yaml", data, "")
	named, unchecked := 0, 0
	for _, p := range cfg.Problems {
		if p.Code != CodeDuplicateKey {
			continue
		}
		switch {
		case p.Severity != SevWarning:
			t.Errorf("%v %q", p.Severity, p.Msg)
		case strings.HasSuffix(p.Msg, uncheckedMsg):
			unchecked++
		case strings.HasSuffix(p.Msg, "(lb_policy)"):
			named++
		default:
			t.Errorf("%q", p.Msg)
		}
	}
	if named == 0 || unchecked == 0 || named+unchecked != 200 {
		t.Errorf("%d named, %d unchecked; want both, 200 in all", named, unchecked)
	}
}

// BenchmarkRepeatedKeysDiffering: 800 clusters each repeating lb_policy
// with a different value, the worst case (maxRereads decodings).
func BenchmarkRepeatedKeysDiffering(b *testing.B) {
	data := repeatedBootstrap(800, "lb_policy", func(int) string { return "RANDOM" }, func(int) string { return "ROUND_ROBIN" })
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		cfg, _ := LoadBytes("bench.yaml", data, "")
		if len(cfg.Clusters) != 800 {
			b.Fatalf("%d clusters", len(cfg.Clusters))
		}
	}
}
