package parse

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseJSON is the fast path for JSON input (config_dumps, discovery
// responses): a single-pass scanner that builds the very tree (node.go)
// that yaml.v3's nodes convert to for the same text (kinds, tags, styles,
// values, line:col), so the decode path and every message stay identical,
// at a fraction of the cost of yaml.v3's libyaml state machine; values
// without escapes stay substrings of src. It accepts only plain JSON that
// yaml.v3 is known to read the same way: printable ASCII with LF line ends,
// one top-level object or array, short single-line keys, no "\/" and
// no surrogate escapes. Anything else returns ok=false and the caller uses yaml.v3,
// which also produces the error messages. TestJSONFastPathMatchesYAML
// compares the two on every fixture and corpus file.
//
// It builds at most maxNodes nodes: past them ok is false and over is the
// offset of the node past them, else over is -1. A tree nested past
// maxDepth is marked Deep.
func ParseJSON(src string, maxNodes, maxDepth int) (root Node, ok bool, over int) {
	t := &Tree{src: src, offsets: true}
	s := &jsonScanner{t: t, src: src, line: 1, maxNodes: maxNodes, over: -1}
	s.space()
	// Offsets and line marks are 32-bit: past 2 GiB (--max-input raised)
	// yaml.v3's path reads it.
	if len(src) >= 1<<31 || s.pos >= len(s.src) || (s.src[s.pos] != '{' && s.src[s.pos] != '[') {
		return Node{}, false, -1
	}
	t.nodes = make([]entry, 0, min(JSONNodeBound(src), maxNodes+1))
	t.kids = make([]int32, 0, cap(t.nodes)/2) // most children are runs (setKids)
	i := s.value(0)
	if s.bad {
		return Node{}, false, s.over
	}
	s.space()
	if s.bad || s.pos != len(s.src) {
		return Node{}, false, -1
	}
	// JSON has no aliases: only nesting can pass the limits.
	t.Deep = s.maxDepth > maxDepth
	t.Fit()
	return Node{t: t, i: i}, true, -1
}

// JSONNodeBound is at least the number of nodes of JSON src: the root,
// plus a key and a value per ':', plus the elements of arrays, which
// number one more than their ','s when not empty. That is 1 + ':'s + ','s
// + non-empty containers; counting every bracket, and the characters in
// strings, only adds to it.
func JSONNodeBound(src string) int {
	n := 1
	for _, c := range [...]string{":", ",", "{", "["} {
		n += strings.Count(src, c)
	}
	return n
}

// maxFastDepth keeps deep nesting on yaml.v3's path (and its limits).
const maxFastDepth = 1000

// maxFastKey: libyaml allows a simple key of at most 1024 characters.
const maxFastKey = 1000

type jsonScanner struct {
	t        *Tree
	src      string // the input; scalar values are substrings of it
	pos      int
	line     int
	bad      bool
	maxDepth int     // of any value so far
	stack    []int32 // children of the open containers
	scratch  []byte  // unescaping buffer
	maxNodes int     // the budget: past it, over is set and the scan ends
	over     int
}

// scalar adds a scalar whose value is src[start:end].
func (s *jsonScanner) scalar(tag, style uint8, start, end, at int) int32 {
	return s.t.add(entry{kind: uint8(ScalarNode), tag: tag, style: style, a: uint32(start), b: uint32(end - start), at: uint32(at)})
}

// space skips JSON whitespace; a tab, CR or a non-ASCII byte ends the fast path.
func (s *jsonScanner) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ':
			s.pos++
		case '\n':
			s.pos++
			s.line++
		case '\t', '\r':
			s.bad = true
			return
		default:
			return
		}
	}
}

func (s *jsonScanner) value(depth int) int32 {
	if s.bad || s.pos >= len(s.src) || depth > maxFastDepth {
		s.bad = true
		return -1
	}
	if depth > s.maxDepth {
		s.maxDepth = depth
	}
	at := s.pos // where the node starts: its line and column (Node.LineCol)
	if len(s.t.nodes) >= s.maxNodes {
		s.bad, s.over = true, at
		return -1
	}
	switch c := s.src[s.pos]; {
	case c == '{':
		return s.container(depth, MappingNode, tagMap, '}', at)
	case c == '[':
		return s.container(depth, SequenceNode, tagSeq, ']', at)
	case c == '"':
		return s.str(at)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(at)
	default:
		for _, lit := range [...]struct {
			word string
			tag  uint8
		}{{"true", tagBool}, {"false", tagBool}, {"null", tagNull}} {
			if len(s.src)-s.pos >= len(lit.word) && s.src[s.pos:s.pos+len(lit.word)] == lit.word {
				start := s.pos
				s.pos += len(lit.word)
				if !s.delimited() {
					return -1
				}
				return s.scalar(lit.tag, 0, start, s.pos, at)
			}
		}
		s.bad = true
		return -1
	}
}

// delimited checks that a plain scalar ends where YAML's would: at
// whitespace or a flow indicator.
func (s *jsonScanner) delimited() bool {
	if s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\n', ',', ']', '}':
		default:
			s.bad = true
			return false
		}
	}
	return true
}

func (s *jsonScanner) container(depth int, kind Kind, tag uint8, end byte, at int) int32 {
	n := s.t.add(entry{kind: uint8(kind), tag: tag, style: StyleFlow, at: uint32(at)})
	if kind == MappingNode {
		s.t.Maps++
	}
	s.pos++ // the opening bracket
	base := len(s.stack)
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == end {
		s.pos++
		s.t.setKids(n, nil)
		return n
	}
	for !s.bad {
		if kind == MappingNode {
			if s.pos >= len(s.src) || s.src[s.pos] != '"' {
				s.bad = true
				break
			}
			keyStart, keyLine := s.pos, s.line
			k := s.value(depth + 1)
			s.space()
			// A simple key: one line, short, then ':'.
			if s.bad || s.line != keyLine || s.pos-keyStart > maxFastKey || s.pos >= len(s.src) || s.src[s.pos] != ':' {
				s.bad = true
				break
			}
			s.pos++
			s.stack = append(s.stack, k)
			s.space()
		}
		v := s.value(depth + 1)
		if s.bad {
			break
		}
		s.stack = append(s.stack, v)
		s.space()
		if s.bad || s.pos >= len(s.src) {
			s.bad = true
			break
		}
		if s.src[s.pos] == ',' {
			s.pos++
			s.space()
			continue
		}
		if s.src[s.pos] == end {
			s.pos++
			s.t.setKids(n, s.stack[base:])
			s.stack = s.stack[:base]
			return n
		}
		s.bad = true
	}
	s.stack = s.stack[:base]
	return -1
}

// str reads a double-quoted string; its value is what yaml.v3 reads,
// a substring of the input unless it has escapes.
func (s *jsonScanner) str(at int) int32 {
	s.pos++ // opening quote
	start := s.pos
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.scalar(tagStr, StyleDoubleQuoted, start, s.pos-1, at)
		case c == '\\':
			v, ok := s.escaped(start)
			if !ok {
				s.bad = true
				return -1
			}
			return s.t.add(entry{kind: uint8(ScalarNode), tag: tagStr, style: StyleDoubleQuoted, flags: flagStrs, a: s.t.str(v), at: uint32(at)})
		case c < 0x20 || c >= 0x7f:
			s.bad = true
			return -1
		}
		s.pos++
	}
	s.bad = true
	return -1
}

// escaped continues str from the first backslash, unescaping into scratch.
func (s *jsonScanner) escaped(start int) (string, bool) {
	b := append(s.scratch[:0], s.src[start:s.pos]...)
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '"':
			s.pos++
			s.scratch = b
			return string(b), true
		case c < 0x20 || c >= 0x7f:
			return "", false
		case c != '\\':
			b = append(b, c)
			s.pos++
			continue
		}
		if s.pos+1 >= len(s.src) {
			return "", false
		}
		e := s.src[s.pos+1]
		s.pos += 2
		switch e {
		case '"', '\\':
			b = append(b, e) // not '/': yaml.v3 rejects "\/"
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if s.pos+4 > len(s.src) {
				return "", false
			}
			r, err := strconv.ParseUint(s.src[s.pos:s.pos+4], 16, 32)
			// Only printable characters: surrogates are an error in
			// yaml.v3, and odd ones are left to it.
			if err != nil || !fastPrintable(rune(r)) {
				return "", false
			}
			b = utf8.AppendRune(b, rune(r))
			s.pos += 4
		default:
			return "", false
		}
	}
	return "", false
}

// number reads a JSON number; its tag is what yaml.v3's resolve gives the
// plain scalar: !!int when it parses as int64 or uint64, else !!float when
// it parses as a float64 (out of range: !!str).
func (s *jsonScanner) number(at int) int32 {
	start := s.pos
	digits := func() int {
		n := 0
		for s.pos < len(s.src) && s.src[s.pos] >= '0' && s.src[s.pos] <= '9' {
			s.pos++
			n++
		}
		return n
	}
	if s.src[s.pos] == '-' {
		s.pos++
	}
	intStart := s.pos
	if digits() == 0 || (s.src[intStart] == '0' && s.pos-intStart > 1) {
		s.bad = true
		return -1
	}
	isInt := true
	if s.pos < len(s.src) && s.src[s.pos] == '.' {
		s.pos++
		isInt = false
		if digits() == 0 {
			s.bad = true
			return -1
		}
	}
	if s.pos < len(s.src) && (s.src[s.pos] == 'e' || s.src[s.pos] == 'E') {
		s.pos++
		isInt = false
		if s.pos < len(s.src) && (s.src[s.pos] == '+' || s.src[s.pos] == '-') {
			s.pos++
		}
		if digits() == 0 {
			s.bad = true
			return -1
		}
	}
	if !s.delimited() {
		return -1
	}
	v := s.src[start:s.pos]
	tag := tagStr
	if isInt && (parses(strconv.ParseInt(v, 10, 64)) || parses(strconv.ParseUint(v, 10, 64))) {
		tag = tagInt
	} else if parses(strconv.ParseFloat(v, 64)) {
		tag = tagFloat
	}
	return s.scalar(tag, 0, start, s.pos, at)
}

// parses reports whether a strconv.Parse* call succeeded.
func parses[T any](_ T, err error) bool { return err == nil }

func fastPrintable(r rune) bool {
	return (r >= 0x20 && r <= 0x7e) || (r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd && r != 0xfeff)
}
