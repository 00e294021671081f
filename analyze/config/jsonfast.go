package config

import (
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// parseJSONNodes is the fast path for JSON input (config_dumps, discovery
// responses): a single-pass scanner that builds the very node tree yaml.v3
// builds for the same text (kinds, tags, styles, values, line:col), so the
// decode path and every message stay identical, at a fraction of the cost
// of yaml.v3's libyaml state machine. It accepts only plain JSON that
// yaml.v3 is known to read the same way: printable ASCII with LF line ends,
// one top-level object or array, short single-line keys, no "\/" and
// no surrogate escapes. Anything else returns ok=false and the caller uses yaml.v3,
// which also produces the error messages. TestJSONFastPathMatchesYAML
// compares the two on every fixture and corpus file.
func parseJSONNodes(data []byte) (root *yaml.Node, ok bool) {
	s := &jsonScanner{src: string(data), line: 1, lineStart: 0}
	s.space()
	if s.pos >= len(s.src) || (s.src[s.pos] != '{' && s.src[s.pos] != '[') {
		return nil, false
	}
	root = s.value(0)
	if s.bad {
		return nil, false
	}
	s.space()
	if s.bad || s.pos != len(s.src) {
		return nil, false
	}
	return root, true
}

// maxFastDepth keeps deep nesting on yaml.v3's path (and its limits).
const maxFastDepth = 1000

// maxFastKey: libyaml allows a simple key of at most 1024 characters.
const maxFastKey = 1000

type jsonScanner struct {
	src       string // the input; scalar values are substrings of it
	pos       int
	line      int
	lineStart int // offset of the current line's first byte
	bad       bool
	slab      []yaml.Node  // nodes are allocated in chunks
	stack     []*yaml.Node // children of the open containers
	scratch   []byte       // unescaping buffer
}

func (s *jsonScanner) node(kind yaml.Kind, tag string, style yaml.Style, value string, line, col int) *yaml.Node {
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]yaml.Node, 0, 1024)
	}
	s.slab = append(s.slab, yaml.Node{Kind: kind, Tag: tag, Style: style, Value: value, Line: line, Column: col})
	return &s.slab[len(s.slab)-1]
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
			s.lineStart = s.pos
		case '\t', '\r':
			s.bad = true
			return
		default:
			return
		}
	}
}

func (s *jsonScanner) col() int { return s.pos - s.lineStart + 1 }

func (s *jsonScanner) value(depth int) *yaml.Node {
	if s.bad || s.pos >= len(s.src) || depth > maxFastDepth {
		s.bad = true
		return nil
	}
	line, col := s.line, s.col()
	switch c := s.src[s.pos]; {
	case c == '{':
		return s.container(depth, yaml.MappingNode, "!!map", '}', line, col)
	case c == '[':
		return s.container(depth, yaml.SequenceNode, "!!seq", ']', line, col)
	case c == '"':
		v, ok := s.str()
		if !ok {
			s.bad = true
			return nil
		}
		return s.node(yaml.ScalarNode, "!!str", yaml.DoubleQuotedStyle, v, line, col)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(line, col)
	default:
		for _, lit := range [...]struct{ word, tag string }{{"true", "!!bool"}, {"false", "!!bool"}, {"null", "!!null"}} {
			if len(s.src)-s.pos >= len(lit.word) && s.src[s.pos:s.pos+len(lit.word)] == lit.word {
				s.pos += len(lit.word)
				if !s.delimited() {
					return nil
				}
				return s.node(yaml.ScalarNode, lit.tag, 0, lit.word, line, col)
			}
		}
		s.bad = true
		return nil
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

func (s *jsonScanner) container(depth int, kind yaml.Kind, tag string, end byte, line, col int) *yaml.Node {
	n := s.node(kind, tag, yaml.FlowStyle, "", line, col)
	s.pos++ // the opening bracket
	base := len(s.stack)
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == end {
		s.pos++
		return n
	}
	for !s.bad {
		if kind == yaml.MappingNode {
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
			n.Content = append(make([]*yaml.Node, 0, len(s.stack)-base), s.stack[base:]...)
			s.stack = s.stack[:base]
			return n
		}
		s.bad = true
	}
	s.stack = s.stack[:base]
	return nil
}

// str reads a double-quoted string and returns its value as yaml.v3 would.
func (s *jsonScanner) str() (string, bool) {
	s.pos++ // opening quote
	start := s.pos
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '"':
			v := s.src[start:s.pos]
			s.pos++
			return v, true
		case c == '\\':
			return s.escaped(start)
		case c < 0x20 || c >= 0x7f:
			return "", false
		}
		s.pos++
	}
	return "", false
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
func (s *jsonScanner) number(line, col int) *yaml.Node {
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
		return nil
	}
	isInt := true
	if s.pos < len(s.src) && s.src[s.pos] == '.' {
		s.pos++
		isInt = false
		if digits() == 0 {
			s.bad = true
			return nil
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
			return nil
		}
	}
	if !s.delimited() {
		return nil
	}
	v := s.src[start:s.pos]
	tag := "!!str"
	if isInt && (parses(strconv.ParseInt(v, 10, 64)) || parses(strconv.ParseUint(v, 10, 64))) {
		tag = "!!int"
	} else if parses(strconv.ParseFloat(v, 64)) {
		tag = "!!float"
	}
	return s.node(yaml.ScalarNode, tag, 0, v, line, col)
}

// parses reports whether a strconv.Parse* call succeeded.
func parses[T any](_ T, err error) bool { return err == nil }

func fastPrintable(r rune) bool {
	return (r >= 0x20 && r <= 0x7e) || (r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd && r != 0xfeff)
}
