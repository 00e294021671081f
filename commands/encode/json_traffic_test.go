package encode

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/fixtures/gen"
)

// encodingJSON is what writeOutput writes for every other report: the
// reflective walk and encoding/json.
func encodingJSON(t *testing.T, r *traffic.Report) []byte {
	t.Helper()
	EmptySlices(r)
	var b bytes.Buffer
	if err := JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkSameJSON(t *testing.T, name string, r *traffic.Report) {
	t.Helper()
	want := encodingJSON(t, r)
	var buf bytes.Buffer
	if err := TrafficJSON(&buf, r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := buf.Bytes()
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-200)
		t.Fatalf("%s: differs from encoding/json at byte %d:\n got: %q\nwant: %q", name, i, got[lo:min(len(got), i+100)], want[lo:min(len(want), i+100)])
	}
}

// TestTrafficJSONMatchesEncodingJSON: the explain report of every fixture
// Envoy accepts, and of a generated dump, is written byte for byte as
// encoding/json writes it.
func TestTrafficJSONMatchesEncodingJSON(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../../fixtures", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json")) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		cfg, err := config.LoadBytes(p, data, "")
		if err != nil || len(cfg.Clusters) == 0 {
			return nil // broken fixtures have no report to write
		}
		r, err := explain.Build(cfg, cfg.Clusters, model.Options{})
		if err != nil {
			return nil
		}
		checkSameJSON(t, p, r)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d fixtures explained", n)
	}
	cfg, err := config.LoadBytes("dump.json", gen.Dump(200), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := explain.Build(cfg, cfg.Clusters, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSameJSON(t, "dump", r)
}

// TestTrafficJSONHostileValues: strings needing escapes (control
// characters, quotes, HTML characters, U+2028, invalid UTF-8), floats
// written with exponents, every optional member set and unset.
func TestTrafficJSONHostileValues(t *testing.T) {
	one, zero := 1, 0
	share := 1e-7
	strs := []string{"", "plain", "a\"b\\c", "tab\tnl\nnul\x00esc\x1b", "<a&b>", "line\u2028sep\u2029", "bad\xffutf8", "é中", "\x7f"}
	var r traffic.Report
	r.Semantics = "grpc"
	for i, s := range strs {
		f := []float64{0, 1, 0.5, 1e-7, 1e-6, 123456789, 1e21, 1.5e300, -2e-9, 1.0 / 3}[i%10]
		c := traffic.ClusterReport{
			Name: s, LbPolicy: s, OverprovisioningFactor: 140, PanicThreshold: -1,
			NoHostShare: f, File: s, EndpointsMissing: i%2 == 0, Notes: []string{s, s + "x"},
			Priorities: []traffic.PriorityReport{{Priority: i, Localities: []traffic.LocalityReport{{
				Region: s, Zone: s, SubZone: s, Weight: math.MaxUint32, EffectiveWeight: f, Share: f,
				Budget: &traffic.LocalityBudget{Budget: traffic.Budget{BeforeSpill: &one}, BeforeShift: &zero},
			}}, Budget: &traffic.Budget{BeforePanic: &one}}, {}},
			Hosts: []traffic.HostReport{{Cluster: s, Address: s, Hostname: s, Health: s, Share: &share}, {Address: s}},
		}
		if i%3 == 0 {
			c.Aggregate = &traffic.AggregateReport{Clusters: []string{s}, TotalPanic: true,
				Levels:      []traffic.AggregateLevel{{Cluster: s, Budget: &traffic.AggregateBudget{BeforeFailover: &one}}, {}},
				ClusterLoad: []traffic.AggregateClusterLd{{Cluster: s, Load: 100}}}
			c.ZoneRouting = &traffic.ZoneRoutingReport{State: s, LocalPercent: 10000, Reason: s,
				Localities: []traffic.ZoneLocalityReport{{Region: s, Share: f}}}
		}
		if i%3 == 1 {
			c.Aggregate = &traffic.AggregateReport{}
			c.ZoneRouting = &traffic.ZoneRoutingReport{}
		}
		r.Clusters = append(r.Clusters, c)
	}
	r.Clusters = append(r.Clusters, traffic.ClusterReport{})
	checkSameJSON(t, "hostile", &r)
	checkSameJSON(t, "empty", &traffic.Report{})

	// encoding/json refuses NaN, and so does this.
	bad := traffic.Report{Clusters: []traffic.ClusterReport{{NoHostShare: math.NaN()}}}
	if err := TrafficJSON(io.Discard, &bad); err == nil {
		t.Fatal("NaN written")
	}
}

// fillAll sets every field reachable from v (a pointer) to a non-zero
// value: lists get two elements, pointers a value. A field added to the
// traffic types later is then in the comparison below without anyone
// remembering to add it.
func fillAll(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if depth > 8 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillAll(v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				fillAll(f, depth+1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fillAll(v.Index(i), depth+1)
		}
	case reflect.String:
		v.SetString("v<\n\x01é" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.125)
	}
}

// TestTrafficJSONEveryField: with every field of every traffic type set,
// the writer still matches encoding/json (a field it does not know
// would be missing), and with every field zero too.
func TestTrafficJSONEveryField(t *testing.T) {
	var r traffic.Report
	fillAll(reflect.ValueOf(&r).Elem(), 0)
	checkSameJSON(t, "every field set", &r)
	var z traffic.Report
	z.Clusters = make([]traffic.ClusterReport, 1)
	z.Clusters[0].Priorities = make([]traffic.PriorityReport, 1)
	z.Clusters[0].Hosts = make([]traffic.HostReport, 1)
	z.Clusters[0].Aggregate = &traffic.AggregateReport{Levels: make([]traffic.AggregateLevel, 1), ClusterLoad: make([]traffic.AggregateClusterLd, 1)}
	z.Clusters[0].ZoneRouting = &traffic.ZoneRoutingReport{Localities: make([]traffic.ZoneLocalityReport, 1)}
	checkSameJSON(t, "every field zero", &z)
}

// TestTrafficJSONStrings: strings of random bytes (ASCII, UTF-8 and
// invalid sequences mixed) are quoted as encoding/json quotes them.
func TestTrafficJSONStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "<", "&", "\"", "\\", "\n", "\x00", "\x7f", "é", "中", "\u2028", "\u2029", "\ufffd", "\xed\xa0\x80", "\xff", "\xe2\x80", "😀", "\xc2\x85"}
	var r traffic.Report
	for range 500 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		r.Clusters = append(r.Clusters, traffic.ClusterReport{Name: b.String()})
	}
	checkSameJSON(t, "random strings", &r)
}

// chunkRecorder keeps each Write separately.
type chunkRecorder struct{ chunks [][]byte }

func (c *chunkRecorder) Write(p []byte) (int, error) {
	c.chunks = append(c.chunks, append([]byte(nil), p...))
	return len(p), nil
}

// TestTrafficJSONLargeClusters: clusters of thousands of hosts (host rows
// written in batches, output in chunks) are written as encoding/json
// writes them, and every chunk ends between JSON values (a string never
// straddles two writes, so the guard sees each secret whole).
func TestTrafficJSONLargeClusters(t *testing.T) {
	r := &traffic.Report{}
	for _, n := range []int{hostBatch - 1, hostBatch, hostBatch + 1, 5000} {
		cfg, err := config.LoadBytes("one.json", gen.One("RING_HASH", n), "")
		if err != nil {
			t.Fatal(err)
		}
		one, err := explain.Build(cfg, cfg.Clusters, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r.Clusters = append(r.Clusters, one.Clusters...)
	}
	checkSameJSON(t, "large clusters", r)
	var rec chunkRecorder
	if err := TrafficJSON(&rec, r); err != nil {
		t.Fatal(err)
	}
	if len(rec.chunks) < 3 {
		t.Fatalf("%d writes; want the output in chunks", len(rec.chunks))
	}
	for i, c := range rec.chunks {
		if bytes.Count(c, []byte(`"`))%2 != 0 {
			t.Fatalf("write %d splits a string", i)
		}
		if end := c[len(c)-1]; end != '}' && end != '\n' {
			t.Fatalf("write %d ends inside a value: %q", i, c[max(0, len(c)-40):])
		}
	}
}

// TestTrafficJSONNonFiniteWritesNothing: a NaN or infinity anywhere in a
// report (each number of every traffic type in turn) fails the write
// before any byte is written, as encoding/json's buffered write did.
func TestTrafficJSONNonFiniteWritesNothing(t *testing.T) {
	// setFloat sets the k-th float reachable from v to x; it returns how
	// many floats it passed.
	var setFloat func(v reflect.Value, k int, x float64) int
	setFloat = func(v reflect.Value, k int, x float64) int {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return 0
			}
			return setFloat(v.Elem(), k, x)
		case reflect.Struct:
			n := 0
			for i := 0; i < v.NumField(); i++ {
				n += setFloat(v.Field(i), k-n, x)
			}
			return n
		case reflect.Slice:
			n := 0
			for i := 0; i < v.Len(); i++ {
				n += setFloat(v.Index(i), k-n, x)
			}
			return n
		case reflect.Float32, reflect.Float64:
			if k == 0 {
				v.SetFloat(x)
			}
			return 1
		}
		return 0
	}
	var probe traffic.Report
	fillAll(reflect.ValueOf(&probe).Elem(), 0)
	total := setFloat(reflect.ValueOf(&probe).Elem(), -1, 0)
	if total < 5 {
		t.Fatalf("only %d numbers in a filled report", total)
	}
	for k := range total {
		for _, x := range []float64{math.NaN(), math.Inf(1)} {
			var r traffic.Report
			fillAll(reflect.ValueOf(&r).Elem(), 0)
			setFloat(reflect.ValueOf(&r).Elem(), k, x)
			// A first cluster of over a chunk, so that a streamed write would
			// already have written it when it meets the bad number.
			big := traffic.ClusterReport{Name: "big"}
			for i := range 3000 {
				big.Hosts = append(big.Hosts, traffic.HostReport{Address: fmt.Sprintf("10.0.%d.%d:80", i>>8, i&255)})
			}
			r.Clusters = append([]traffic.ClusterReport{big}, r.Clusters...)
			var rec chunkRecorder
			if err := TrafficJSON(&rec, &r); err == nil || len(rec.chunks) > 0 {
				t.Errorf("number %d = %v: error %v, %d writes", k, x, err, len(rec.chunks))
			}
		}
	}
}
