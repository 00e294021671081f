package config

import (
	"runtime"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
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
		runtime.GOMAXPROCS(0) > 1 && v.t != nil && v.t.id != 0
}

// messages decodes the items of sequence v into new elements of list.
func (d *decoder) messages(list protoreflect.List, v node) {
	count := v.len()
	els := make([]protoreflect.Message, count)
	for i := range els {
		els[i] = list.AppendMutable().Message()
	}
	workers := min(runtime.GOMAXPROCS(0), count)
	decode := func(c *decoder, w int) { // chunk w: items [w·count/workers, (w+1)·count/workers)
		for i := w * count / workers; i < (w+1)*count/workers; i++ {
			c.message(resolve(v.child(i)), els[i])
		}
	}
	// The first chunk comes first in item order: it records straight into
	// d and d.src (the others only read d.src's files).
	chunks := make([]decoder, workers)
	var wg sync.WaitGroup
	for w := range chunks {
		c := &chunks[w]
		*c = *d
		c.inChunk = true
		if w == 0 {
			continue
		}
		c.probs = nil
		c.src = d.src.shadow()
		wg.Add(1)
		go func() {
			defer wg.Done()
			decode(c, w)
		}()
	}
	decode(&chunks[0], 0)
	wg.Wait()
	d.probs = chunks[0].probs
	for _, c := range chunks[1:] {
		d.probs = append(d.probs, c.probs...)
		d.src.merge(c.src)
	}
}

// shadow is an empty Sources for one chunk's records, reading s's files.
// Its records need no tree registration: fanOut checked the tree's.
func (s *Sources) shadow() *Sources {
	return &Sources{files: s.files, unpacked: map[*anypb.Any]proto.Message{}}
}

// merge appends a chunk's records after s's, as if recorded here.
func (s *Sources) merge(c *Sources) {
	s.pos.keys = append(s.pos.keys, c.pos.keys...)
	s.pos.ids = append(s.pos.ids, c.pos.ids...)
	for a, m := range c.unpacked {
		s.unpacked[a] = m
	}
	cs := &c.secrets
	if cs.starts == nil {
		return
	}
	if s.secrets.starts == nil {
		s.secrets = secretSpans{starts: map[string]map[int][]int{}, whole: map[string]map[int]bool{}, values: map[string]bool{}}
	}
	sp := &s.secrets
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
