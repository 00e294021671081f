package config

import (
	"github.com/lbctl/lbctl/fixtures/gen"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The first record of a message wins, whether it is still in the log,
// already indexed, or indexed and recorded again after.
func TestPositionsFirstRecordWins(t *testing.T) {
	objs := make([]*int64, 50)
	for i := range objs {
		objs[i] = new(int64)
	}
	key := func(i int) unsafe.Pointer { return unsafe.Pointer(objs[i]) }
	var p positions
	for i := range 30 {
		p.add(key(i), uint32(i))
	}
	p.add(key(3), 1000) // later record of 3: ignored
	check := func(stage string) {
		t.Helper()
		for i := range 40 {
			id, ok := p.find(key(i))
			if i < 30 && (!ok || id != uint32(i)) {
				t.Errorf("%s: %d -> %d %v, want %d", stage, i, id, ok, i)
			}
			if i >= 30 && i < 35 && (!ok || id != uint32(100+i)) {
				t.Errorf("%s: %d -> %d %v, want %d", stage, i, id, ok, 100+i)
			}
			if i >= 35 && ok {
				t.Errorf("%s: %d never recorded, found %d", stage, i, id)
			}
		}
	}
	for i := 30; i < 35; i++ {
		p.add(key(i), uint32(100+i))
	}
	check("log")
	p.index()
	if len(p.keys) != 0 || len(p.sorted) != 35 {
		t.Fatalf("index: log %d, sorted %d, want 0 and 35", len(p.keys), len(p.sorted))
	}
	check("indexed")
	p.add(key(5), 2000) // recorded again after indexing: still 5
	p.add(key(31), 2001)
	check("index and log")
	p.index()
	check("reindexed")
	if _, ok := p.find(nil); ok {
		t.Error("nil found")
	}
}

// radixSort agrees with a stable comparison sort by address.
func TestRadixSortStable(t *testing.T) {
	objs := make([]*[3]int64, 2000)
	for i := range objs {
		objs[i] = new([3]int64)
	}
	r := rand.New(rand.NewPCG(1, 2))
	a := make([]rec, 10000)
	for i := range a {
		a[i] = rec{unsafe.Pointer(objs[r.IntN(len(objs))]), uint32(i)}
	}
	want := append([]rec(nil), a...)
	sort.SliceStable(want, func(i, j int) bool { return uintptr(want[i].p) < uintptr(want[j].p) })
	got := radixSort(a)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("at %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// Every message of the fixtures is found at the same node through the
// log (lookups scanning it) and through the index.
func TestPositionsIndexMatchesLog(t *testing.T) {
	var files []string
	filepath.WalkDir("../../fixtures", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && yamlOrJSON(p) && !strings.Contains(p, "broken") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 20 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, f := range files {
		cfg, _ := Load([]Input{{Path: f}}, "")
		if cfg == nil {
			continue
		}
		msgs := loadedMessages(cfg)
		src := cfg.Sources
		src.pos.index() // whatever linking looked up, start from a log
		src.pos.sorted, src.pos.sids, src.pos.keys, src.pos.ids = nil, nil, src.pos.sorted, src.pos.sids
		byLog := make([]Pos, len(msgs))
		for i, m := range msgs {
			byLog[i] = src.Pos(m)
		}
		src.pos.index()
		for i, m := range msgs {
			if got := src.Pos(m); got != byLog[i] {
				t.Errorf("%s: %T at %s in the log, %s indexed", f, m, byLog[i], got)
			}
		}
	}
}

// loadedMessages are the clusters', assignments' and routes' messages.
func loadedMessages(cfg *Config) []proto.Message {
	var out []proto.Message
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		out = append(out, m.Interface())
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Message() == nil || fd.IsMap():
			case fd.IsList():
				for i := range v.List().Len() {
					walk(v.List().Get(i).Message())
				}
			default:
				walk(v.Message())
			}
			return true
		})
	}
	for _, c := range cfg.Clusters {
		walk(c.Proto.ProtoReflect())
	}
	for _, a := range cfg.Assignments {
		walk(a.ProtoReflect())
	}
	for _, r := range cfg.Routes {
		walk(r.ProtoReflect())
	}
	return out
}

// Lookups from many goroutines at once, the index built under them (run
// with -race).
func TestPositionsConcurrentLookups(t *testing.T) {
	var b strings.Builder
	gen.Cluster(&b, "big", "MAGLEV", 3000, 0, false)
	cfg, err := LoadBytes("big.json", []byte(b.String()), "")
	if err != nil {
		t.Fatal(err)
	}
	msgs := loadedMessages(cfg)
	want := make([]Pos, len(msgs))
	for i, m := range msgs {
		want[i] = cfg.Sources.Pos(m)
		if want[i].Line == 0 {
			t.Fatalf("%T not located", m)
		}
	}
	cfg.Sources.pos.sorted, cfg.Sources.pos.sids, cfg.Sources.pos.keys, cfg.Sources.pos.ids = nil, nil, cfg.Sources.pos.sorted, cfg.Sources.pos.sids
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range msgs {
				j := (i*7 + g*1000) % len(msgs)
				if got := cfg.Sources.Pos(msgs[j]); got != want[j] {
					t.Errorf("%T at %s, want %s", msgs[j], got, want[j])
					return
				}
				_ = cfg.Sources.Line("big.json", 1)
			}
		}()
	}
	wg.Wait()
	if len(cfg.Sources.pos.sorted) == 0 {
		t.Error("lookups never built the index")
	}
}

// The index is built only once lookups have scanned about what building
// it costs: a lookup of the first message (explain's cluster) never sorts.
func TestPositionsIndexOnDemand(t *testing.T) {
	objs := make([]int64, 10000)
	var p positions
	for i := range objs {
		p.add(unsafe.Pointer(&objs[i]), uint32(i))
	}
	for range 1000 {
		if id, ok := p.find(unsafe.Pointer(&objs[0])); !ok || id != 0 {
			t.Fatalf("first record: %d %v", id, ok)
		}
	}
	if p.sorted != nil {
		t.Fatal("index built for lookups that scan one entry")
	}
	var other int64
	for i := 0; p.sorted == nil; i++ {
		if i > 5 { // 4 log lengths + 4096 entries: 5 full scans
			t.Fatalf("no index after %d missed lookups", i)
		}
		if _, ok := p.find(unsafe.Pointer(&other)); ok {
			t.Fatal("found a message never recorded")
		}
	}
	if len(p.sorted) != len(objs) || len(p.keys) != 0 {
		t.Fatalf("index of %d, log of %d", len(p.sorted), len(p.keys))
	}
}
