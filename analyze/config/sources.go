package config

import (
	"reflect"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// Sources remembers where every decoded message came from, so that any
// later stage (lint rules, explain notes) can point at the exact line. Its
// parts answer apart: where a message is written, the inputs' lines, the
// secrets to mask, and where template placeholders stand.
type Sources struct {
	locations
	fileTexts
	secrets  secretSpans
	unknowns // template placeholders' surroundings (template.go)
}

// locations maps each decoded message to the node it was read from, and
// each Any to its decoded payload.
type locations struct {
	pos      positions
	trees    []*tree // the trees recorded nodes are in, by first node id
	nextID   uint32  // the first node id of the next tree recorded
	unpacked map[*anypb.Any]proto.Message
}

// fileTexts are the inputs' texts by file name, split into lines on demand.
type fileTexts struct {
	files map[string]*fileText
}

// fileText is one input's text; its lines are indexed on first use.
type fileText struct {
	text   string
	once   sync.Once // reports read lines from several goroutines
	starts []int32   // offset of each line's first byte
	// lines, split on first use of Lines.
	linesOnce sync.Once
	lines     []string
}

func newSources() *Sources {
	return &Sources{
		locations: locations{unpacked: map[*anypb.Any]proto.Message{}},
		fileTexts: fileTexts{files: map[string]*fileText{}},
	}
}

// expect makes room before decoding documents of about n mappings, which
// become about as many messages (wrapper values and Any payloads add some).
func (s *locations) expect(n int) {
	if n >= 1024 {
		s.pos.grow(n + n/4)
	}
}

// msgKey is the pointer to message m (nil for none): messages are
// pointers. Recorded, it keeps the message alive, so its address never
// comes back as another message's.
func msgKey(m proto.Message) unsafe.Pointer {
	if m == nil {
		return nil
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer {
		return v.UnsafePointer()
	}
	return nil
}

// record remembers n as where m is written, unless m has a place already.
// An Any's body loses its hidden "@type" pair here (skip): that key is no
// field of the payload, so no position asked for depends on it.
func (s *locations) record(m proto.Message, n node) {
	k := msgKey(m)
	if k == nil {
		return
	}
	t, i := n.Place()
	s.register(t)
	s.pos.add(k, t.Base+uint32(i))
}

// register gives t's nodes ids, when a first node of t is recorded.
func (s *locations) register(t *tree) {
	if t.ID == 0 {
		// A tree is complete before it is decoded: its nodes take the
		// ids from nextID on (uint32: far more nodes than an input can
		// hold in memory).
		s.trees = append(s.trees, t)
		t.ID = int32(len(s.trees))
		t.Base = s.nextID
		s.nextID += uint32(t.Size())
	}
}

// located is the node recorded first for m.
func (s *locations) located(m proto.Message) (node, bool) {
	id, ok := s.pos.find(msgKey(m))
	if !ok {
		return node{}, false
	}
	// The last tree whose first id is not past id.
	i := sort.Search(len(s.trees), func(i int) bool { return s.trees[i].Base > id }) - 1
	t := s.trees[i]
	return parse.At(t, int32(id-t.Base)), true
}

// Pos is where message m starts; the zero Pos if m was not loaded from a file.
func (s *locations) Pos(m proto.Message) Pos {
	if n, ok := s.located(m); ok {
		return posIn(n, n)
	}
	return Pos{}
}

// FieldPos is where field (its proto name) of m is written: the key, or m
// itself when the field is absent.
func (s *locations) FieldPos(m proto.Message, field string) Pos {
	n, ok := s.located(m)
	if !ok {
		return Pos{}
	}
	a, b := fieldSpellings(m, field)
	if _, k := parse.MapGet(n, a, b); k.OK() {
		return posIn(n, k)
	}
	return posIn(n, n)
}

// ValuePos is where the value of field of m is written, or FieldPos.
func (s *locations) ValuePos(m proto.Message, field string) Pos {
	n, ok := s.located(m)
	if !ok {
		return Pos{}
	}
	a, b := fieldSpellings(m, field)
	if v, _ := parse.MapGet(n, a, b); v.OK() {
		return posIn(n, v)
	}
	return posIn(n, n)
}

// Place names a spot Places finds: message Msg itself, or its field
// Field (the key; the value when Value).
type Place struct {
	Msg   proto.Message
	Field string
	Value bool
}

// AppendPlaces appends where each of ps is, as Pos, FieldPos and
// ValuePos find it, to dst: a cluster's reports gather what they point at
// and ask once.
func (s *locations) AppendPlaces(dst []Pos, ps []Place) []Pos {
	for _, p := range ps {
		n, ok := s.located(p.Msg)
		if !ok {
			dst = append(dst, Pos{})
			continue
		}
		at := n
		if p.Field != "" {
			a, b := fieldSpellings(p.Msg, p.Field)
			if v, k := parse.MapGet(n, a, b); p.Value && v.OK() {
				at = v
			} else if !p.Value && k.OK() {
				at = k
			}
		}
		dst = append(dst, nodePos(treeOf(n).File, at))
	}
	return dst
}

// ElemPos is where element i of a repeated scalar field of m is written.
func (s *locations) ElemPos(m proto.Message, field string, i int) Pos {
	n, ok := s.located(m)
	if !ok {
		return Pos{}
	}
	a, b := fieldSpellings(m, field)
	if v, _ := parse.MapGet(n, a, b); v.OK() && v.Kind() == sequenceNode && i < v.Len() {
		return posIn(n, v.Child(i))
	}
	return s.FieldPos(m, field)
}

// Unpacked returns the decoded payload of a typed config, or nil when its
// type is unknown to this build.
func (s *locations) Unpacked(a *anypb.Any) proto.Message {
	if a == nil {
		return nil
	}
	return s.unpacked[a]
}

// Line returns line n (from 1) of file, for snippets: without its "\n"
// or "\r\n".
func (s *fileTexts) Line(file string, n int) string {
	f := s.files[file]
	if f == nil || n < 1 || n > f.count() {
		return ""
	}
	start, end := int(f.starts[n-1]), len(f.text)
	if n < len(f.starts) {
		end = int(f.starts[n]) - 1 // the '\n'
		if end > start && f.text[end-1] == '\r' {
			end--
		}
	}
	return f.text[start:end]
}

// lineCount is the number of lines of file.
func (s *fileTexts) lineCount(file string) int {
	if f := s.files[file]; f != nil {
		return f.count()
	}
	return 0
}

// Lines returns every line of file, for scans such as inline suppressions.
func (s *fileTexts) Lines(file string) []string {
	f := s.files[file]
	if f == nil {
		return nil
	}
	f.linesOnce.Do(func() {
		f.lines = make([]string, f.count())
		for i := range f.lines {
			f.lines[i] = s.Line(file, i+1)
		}
	})
	return f.lines
}

func (f *fileText) count() int {
	f.once.Do(func() {
		f.starts = append(make([]int32, 0, strings.Count(f.text, "\n")+1), 0)
		for i := 0; i < len(f.text); i++ {
			if f.text[i] == '\n' {
				f.starts = append(f.starts, int32(i+1))
			}
		}
	})
	return len(f.starts)
}

// addFile keeps file's text; lines are split only when asked for.
func (s *fileTexts) addFile(file, text string) {
	s.files[file] = &fileText{text: text}
}

// fieldSpellings are the proto and JSON names of field of m.
func fieldSpellings(m proto.Message, field string) (string, string) {
	if fd := m.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(field)); fd != nil {
		return field, fd.JSONName()
	}
	return field, field
}

// nodePos is where n is written in file; the zero node is file alone.
func nodePos(file string, n node) Pos {
	if !n.OK() {
		return Pos{File: file}
	}
	line, col := n.LineCol()
	return Pos{File: file, Line: line, Col: col}
}

// treeOf is the tree n is in (nil for no node).
func treeOf(n node) *tree {
	t, _ := n.Place()
	return t
}

// posIn is the position of x, a node of n's tree.
func posIn(n, x node) Pos { return nodePos(treeOf(n).File, x) }
