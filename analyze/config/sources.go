package config

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// Sources remembers where every decoded message came from, so that any
// later stage (lint rules, explain notes) can point at the exact line.
type Sources struct {
	nodes    map[proto.Message]located
	unpacked map[*anypb.Any]proto.Message
	lines    map[string][]string
	secrets  secretSpans
}

type located struct {
	file string
	node node
}

func newSources() *Sources {
	return &Sources{
		nodes:    map[proto.Message]located{},
		unpacked: map[*anypb.Any]proto.Message{},
		lines:    map[string][]string{},
	}
}

func (s *Sources) record(m proto.Message, file string, n node) {
	if _, ok := s.nodes[m]; !ok {
		s.nodes[m] = located{file, n}
	}
}

// Pos is where message m starts; the zero Pos if m was not loaded from a file.
func (s *Sources) Pos(m proto.Message) Pos {
	if l, ok := s.nodes[m]; ok {
		return nodePos(l.file, l.node)
	}
	return Pos{}
}

// FieldPos is where field (its proto name) of m is written: the key, or m
// itself when the field is absent.
func (s *Sources) FieldPos(m proto.Message, field string) Pos {
	l, ok := s.nodes[m]
	if !ok {
		return Pos{}
	}
	if _, k := mapGet(l.node, fieldSpellings(m, field)...); k.ok() {
		return nodePos(l.file, k)
	}
	return nodePos(l.file, l.node)
}

// ValuePos is where the value of field of m is written, or FieldPos.
func (s *Sources) ValuePos(m proto.Message, field string) Pos {
	l, ok := s.nodes[m]
	if !ok {
		return Pos{}
	}
	if v, _ := mapGet(l.node, fieldSpellings(m, field)...); v.ok() {
		return nodePos(l.file, v)
	}
	return nodePos(l.file, l.node)
}

// ElemPos is where element i of a repeated scalar field of m is written.
func (s *Sources) ElemPos(m proto.Message, field string, i int) Pos {
	l, ok := s.nodes[m]
	if !ok {
		return Pos{}
	}
	if v, _ := mapGet(l.node, fieldSpellings(m, field)...); v.ok() && v.kind() == sequenceNode && i < v.len() {
		return nodePos(l.file, v.child(i))
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

// Line returns line n (from 1) of file, for snippets.
func (s *Sources) Line(file string, n int) string {
	ls := s.lines[file]
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

// Lines returns every line of file, for scans such as inline suppressions.
func (s *Sources) Lines(file string) []string { return s.lines[file] }

func (s *Sources) addFile(file string, data []byte) {
	s.lines[file] = strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
}

func fieldSpellings(m proto.Message, field string) []string {
	names := []string{field}
	if fd := m.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(field)); fd != nil {
		names = append(names, fd.JSONName())
	}
	return names
}
