package config

import (
	"reflect"
	"strings"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// Sources remembers where every decoded message came from, so that any
// later stage (lint rules, explain notes) can point at the exact line.
type Sources struct {
	nodes    map[unsafe.Pointer]loc // by message (msgKey)
	trees    []*tree                // the trees locs point into
	unpacked map[*anypb.Any]proto.Message
	files    map[string]*fileText
	secrets  secretSpans
}

// fileText is one input's text; its lines are indexed on first use.
type fileText struct {
	text   string
	starts []int32 // offset of each line's first byte
	lines  []string
}

func newSources() *Sources {
	return &Sources{
		nodes:    map[unsafe.Pointer]loc{},
		unpacked: map[*anypb.Any]proto.Message{},
		files:    map[string]*fileText{},
	}
}

// expect sizes the position map before decoding documents of about n
// mappings, which become about as many messages (wrapper values and Any
// payloads add some): growing it was a third of a large input's garbage.
func (s *Sources) expect(n int) {
	n += n / 4
	if n < 1024 || n <= len(s.nodes) {
		return
	}
	m := make(map[unsafe.Pointer]loc, len(s.nodes)+n)
	for k, v := range s.nodes {
		m[k] = v
	}
	s.nodes = m
}

// loc is a recorded node: its tree (index+1 in Sources.trees) and index.
// With a pointer key it makes a 16-byte map slot, half of an interface key
// and a node handle: the map holds an entry per message of the input.
type loc struct{ tree, i int32 }

// msgKey is the pointer to message m (nil for none): messages are
// pointers. As a map key it keeps the message alive (as the interface key
// did), so its address never comes back as another message's.
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
func (s *Sources) record(m proto.Message, n node) {
	k := msgKey(m)
	if _, ok := s.nodes[k]; ok || k == nil {
		return
	}
	if n.t.id == 0 {
		s.trees = append(s.trees, n.t)
		n.t.id = int32(len(s.trees))
	}
	s.nodes[k] = loc{n.t.id, n.i}
}

// located is the node recorded for m.
func (s *Sources) located(m proto.Message) (node, bool) {
	l, ok := s.nodes[msgKey(m)]
	if !ok {
		return node{}, false
	}
	return node{t: s.trees[l.tree-1], i: l.i}, true
}

// Pos is where message m starts; the zero Pos if m was not loaded from a file.
func (s *Sources) Pos(m proto.Message) Pos {
	if n, ok := s.located(m); ok {
		return n.pos(n)
	}
	return Pos{}
}

// FieldPos is where field (its proto name) of m is written: the key, or m
// itself when the field is absent.
func (s *Sources) FieldPos(m proto.Message, field string) Pos {
	n, ok := s.located(m)
	if !ok {
		return Pos{}
	}
	a, b := fieldSpellings(m, field)
	if _, k := mapGet(n, a, b); k.ok() {
		return n.pos(k)
	}
	return n.pos(n)
}

// ValuePos is where the value of field of m is written, or FieldPos.
func (s *Sources) ValuePos(m proto.Message, field string) Pos {
	n, ok := s.located(m)
	if !ok {
		return Pos{}
	}
	a, b := fieldSpellings(m, field)
	if v, _ := mapGet(n, a, b); v.ok() {
		return n.pos(v)
	}
	return n.pos(n)
}

// ElemPos is where element i of a repeated scalar field of m is written.
func (s *Sources) ElemPos(m proto.Message, field string, i int) Pos {
	n, ok := s.located(m)
	if !ok {
		return Pos{}
	}
	a, b := fieldSpellings(m, field)
	if v, _ := mapGet(n, a, b); v.ok() && v.kind() == sequenceNode && i < v.len() {
		return n.pos(v.child(i))
	}
	return s.FieldPos(m, field)
}

// Unpacked returns the decoded payload of a typed config, or nil when its
// type is unknown to this build.
func (s *Sources) Unpacked(a *anypb.Any) proto.Message {
	if a == nil {
		return nil
	}
	return s.unpacked[a]
}

// Line returns line n (from 1) of file, for snippets: without its "\n"
// or "\r\n".
func (s *Sources) Line(file string, n int) string {
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
func (s *Sources) lineCount(file string) int {
	if f := s.files[file]; f != nil {
		return f.count()
	}
	return 0
}

// Lines returns every line of file, for scans such as inline suppressions.
func (s *Sources) Lines(file string) []string {
	f := s.files[file]
	if f == nil {
		return nil
	}
	if f.lines == nil {
		f.lines = make([]string, f.count())
		for i := range f.lines {
			f.lines[i] = s.Line(file, i+1)
		}
	}
	return f.lines
}

func (f *fileText) count() int {
	if f.starts == nil {
		f.starts = append(make([]int32, 0, strings.Count(f.text, "\n")+1), 0)
		for i := 0; i < len(f.text); i++ {
			if f.text[i] == '\n' {
				f.starts = append(f.starts, int32(i+1))
			}
		}
	}
	return len(f.starts)
}

// addFile keeps file's text; lines are split only when asked for.
func (s *Sources) addFile(file, text string) {
	s.files[file] = &fileText{text: text}
}

// fieldSpellings are the proto and JSON names of field of m.
func fieldSpellings(m proto.Message, field string) (string, string) {
	if fd := m.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(field)); fd != nil {
		return field, fd.JSONName()
	}
	return field, field
}
