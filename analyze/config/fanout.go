package config

import (
	"runtime"
	"slices"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// Long repeated message fields (lb_endpoints, a dump's clusters, routes) are
// decoded on all cores: the elements are created up front, then contiguous
// chunks of them are decoded by copies of the decoder, each with its own
// problems and its own Sources records, merged back in item order, so the
// result is what a sequential decode gives, record for record.

// parallelMin is the list length from which a repeated message field is
// split: below it the goroutines and merges cost more than they save
// (BenchmarkFanOut: 128 hosts 15% slower split, 512 10% faster, 2048 25%).
var parallelMin = 512

// parallelDecode is off only in tests comparing with a sequential decode.
var parallelDecode = true

// fanOut reports whether the count items of list node v are to be decoded
// in parallel: long enough, not inside a chunk already (one level of
// fan-out at a time), and in a tree Sources has registered (record then
// only reads it).
func (d *decoder) fanOut(v node, count int) bool {
	return parallelDecode && !d.inChunk && count >= parallelMin &&
		runtime.GOMAXPROCS(0) > 1 && treeOf(v) != nil && treeOf(v).ID != 0
}

// messages decodes the items of sequence v into new elements of list.
func (d *decoder) messages(list protoreflect.List, v node) {
	count := v.Len()
	els := make([]protoreflect.Message, count)
	for i := range els {
		els[i] = list.AppendMutable().Message()
	}
	probs := make([]Problems, chunks(count))
	d.src.inChunks(count, func(w int, src *Sources, lo, hi int) {
		c := *d
		c.inChunk, c.src, c.probs = true, src, nil
		// Each chunk pushes onto its own stack: a shared backing array
		// would be written by every chunk at once.
		c.stack = slices.Clone(d.stack)
		for i := lo; i < hi; i++ {
			c.message(parse.Resolve(v.Child(i)), els[i])
		}
		probs[w] = c.probs
	})
	for _, p := range probs {
		d.probs = append(d.probs, p...)
	}
}

// chunks is how many chunks count items are split into.
func chunks(count int) int { return min(runtime.GOMAXPROCS(0), count) }

// inChunks runs fn on each of the chunks(count) contiguous chunks of count
// items [lo, hi): the first, which comes first in item order, on this
// goroutine recording into s itself, the others each on its own goroutine
// into a shadow of s, merged back in chunk order.
func (s *Sources) inChunks(count int, fn func(w int, src *Sources, lo, hi int)) {
	n := chunks(count)
	shadows := make([]*Sources, n)
	var wg sync.WaitGroup
	for w := 1; w < n; w++ {
		shadows[w] = s.shadow()
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, shadows[w], w*count/n, (w+1)*count/n)
		}()
	}
	fn(0, s, 0, count/n)
	wg.Wait()
	for _, c := range shadows[1:] {
		s.merge(c)
	}
}

// shadow is an empty Sources for one chunk's records, reading s's files.
// Its records need no tree registration: fanOut checked the tree's.
func (s *Sources) shadow() *Sources {
	return &Sources{fileTexts: s.fileTexts, locations: locations{unpacked: map[*anypb.Any]proto.Message{}}}
}

// merge appends a chunk's records after s's, as if recorded here.
func (s *Sources) merge(c *Sources) {
	s.pos.keys = append(s.pos.keys, c.pos.keys...)
	s.pos.ids = append(s.pos.ids, c.pos.ids...)
	for a, m := range c.unpacked {
		s.unpacked[a] = m
	}
	s.secrets.merge(&c.secrets)
}

// merge adds a chunk's secret records to sp's.
func (sp *secretSpans) merge(cs *secretSpans) {
	if cs.starts == nil {
		return
	}
	sp.init()
	for file, lines := range cs.starts {
		if sp.starts[file] == nil {
			sp.starts[file], sp.whole[file] = map[int][]int{}, map[int]bool{}
		}
		for line, cols := range lines {
			sp.starts[file][line] = append(sp.starts[file][line], cols...)
		}
		for line := range cs.whole[file] {
			sp.whole[file][line] = true
		}
	}
	for v := range cs.values {
		sp.values[v] = true
	}
}

// typedInParallel reads a long "resources" list of typed resources as
// readDiscovery does item by item (l.decode then l.typed), the decoding on
// all cores: each item's problems, then what typed reports, in item order.
// It reads nothing (false) when the list is short or holds an untyped item.
func (l *loader) typedInParallel(file string, res node) bool {
	count := res.Len()
	if !parallelDecode || count < parallelMin || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	items := make([]node, count)
	for i := range items {
		items[i] = discoveryItem(res.Child(i))
		if t, _ := parse.MapGet(items[i], "@type"); !t.OK() || treeOf(items[i]) != treeOf(res) {
			return false
		}
	}
	// Sequentially the first item's record registers the tree: nothing
	// of it can be recorded in between, so its ids are the same.
	l.cfg.Sources.register(treeOf(res))
	anys := make([]*anypb.Any, count)
	probs := make([]Problems, count)
	l.cfg.Sources.inChunks(count, func(_ int, src *Sources, lo, hi int) {
		for i := lo; i < hi; i++ {
			d := l.decoder(file, false)
			d.src, d.inChunk = src, true
			anys[i] = &anypb.Any{}
			d.message(items[i], anys[i].ProtoReflect())
			probs[i] = d.probs
		}
	})
	for i, a := range anys {
		l.cfg.Problems = append(l.cfg.Problems, probs[i]...)
		l.typed(file, a)
	}
	return true
}
