package config

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/lbctl/lbctl/analyze/config/parse"
	"github.com/lbctl/lbctl/analyze/option"
)

// DefaultMaxInput is the default size limit of one input, file or answer.
const DefaultMaxInput = 512 << 20

// Internal bounds on what one input may make the loader build. Real
// configurations stay far below them; hostile ones (YAML alias bombs,
// absurd nesting) are refused before anything is decoded.
const (
	// MaxAliasNodes bounds the nodes YAML aliases add to a document once
	// expanded (the decoder follows every alias, so an anchor used twice is
	// decoded twice).
	MaxAliasNodes = 1_000_000
	// MaxDepth bounds the nesting of mappings and lists, aliases followed.
	MaxDepth = 256
	// MaxHosts bounds the endpoints of one configuration.
	MaxHosts = 2_000_000
)

// Limits are the bounds a caller may raise (--max-input).
type Limits struct {
	// MaxInput is the largest file or answer in bytes, and the largest
	// total of all of them (0: DefaultMaxInput).
	MaxInput int64
	// Hint replaces "raise --max-input" (option.MaxInput) in the messages when the limit
	// has another source (e.g. an address-space limit).
	Hint string
}

func (l Limits) hint() string {
	if l.Hint != "" {
		return l.Hint
	}
	return "raise " + option.MaxInput.String()
}

func (l Limits) maxInput() int64 {
	if l.MaxInput > 0 {
		return l.MaxInput
	}
	return DefaultMaxInput
}

// checkExpansion walks doc as the decoder will, aliases followed, and
// reports the first alias that takes the expanded size past maxAlias
// (budget.go; at most MaxAliasNodes) or a node nested deeper than MaxDepth. Size and height are memoised per
// anchored node, so the walk is linear in the written document however
// much it expands.
func checkExpansion(file string, doc node, maxAlias int) *Problem {
	type measure struct{ size, height int }
	memo := map[node]measure{}
	extra := 0
	var prob *Problem
	fail := func(n node, format string, a ...any) {
		if prob == nil {
			prob = &Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeSyntax, Msg: fmt.Sprintf(format, a...)}
		}
	}
	var walk func(n node, depth int) measure
	walk = func(n node, depth int) measure {
		if prob != nil || !n.OK() {
			return measure{}
		}
		if depth > MaxDepth {
			fail(n, "nesting deeper than %d levels (lbctl's limit on nesting depth)", MaxDepth)
			return measure{}
		}
		if n.Kind() == aliasNode {
			m, ok := memo[n.Target()]
			if ok && m.size < 0 {
				// An alias inside the node it names: the decoder would
				// follow it for ever (yaml.v3: "anchor value contains itself").
				fail(n, "YAML alias inside the anchored node it refers to: it would expand without end")
				return measure{}
			}
			if !ok {
				memo[n.Target()] = measure{-1, -1} // being walked
				m = walk(n.Target(), depth)
				memo[n.Target()] = m
			}
			if depth+m.height > MaxDepth+1 {
				fail(n, "nesting deeper than %d levels once aliases are expanded (lbctl's limit on nesting depth)", MaxDepth)
			}
			if extra += m.size; extra > maxAlias {
				fail(n, "YAML aliases expand to more than %d nodes (lbctl's limit on alias expansion)", maxAlias)
			}
			return m
		}
		m := measure{size: 1, height: 1}
		for ci := range n.Len() {
			c := n.Child(ci)
			cm := walk(c, depth+1)
			m.size = min(m.size+cm.size, 2*maxAlias) // saturate: enough to fail, no overflow
			m.height = max(m.height, cm.height+1)
		}
		if n.Anchored() {
			memo[n] = m
		}
		return m
	}
	walk(doc, 0)
	return prob
}

// checkEncoding finds the first NUL byte or invalid UTF-8 sequence, which
// YAML (and JSON) forbid, and gives its real line and column (yaml.v3
// reports them at the start of the stream). UTF-16 input (with its BOM) is
// left to the YAML parser.
func checkEncoding(file string, data []byte) *Problem {
	if len(data) >= 2 && (data[0] == 0xFE && data[1] == 0xFF || data[0] == 0xFF && data[1] == 0xFE) {
		return nil
	}
	if utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		return nil // the common case, without walking rune by rune
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, w := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && w <= 1:
			return &Problem{Pos: Pos{File: file, Line: line, Col: col}, Severity: SevError, Code: CodeSyntax,
				Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x at offset %d)", data[i], i)}
		case r == 0:
			return &Problem{Pos: Pos{File: file, Line: line, Col: col}, Severity: SevError, Code: CodeSyntax,
				Msg: fmt.Sprintf("NUL byte at offset %d (not allowed in YAML or JSON)", i)}
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		i += w
	}
	return nil
}

// checkJSONCommas finds a trailing comma ("[1, 2,]", "{"a": 1,}") in a JSON
// document. YAML's flow collections allow one, so the YAML parser does not
// object, but Envoy reads a file not named .yaml/.yml as JSON
// (MessageUtil::loadFromFile) and protobuf's JSON lexer rejects it
// (json/internal/lexer.h VisitArray/VisitObject: "expected ']'").
func checkJSONCommas(file string, data []byte) *Problem {
	ext := strings.ToLower(filepath.Ext(configName(file)))
	if ext == ".yaml" || ext == ".yml" {
		return nil
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' {
		return nil
	}
	if line, col, closer, ok := parse.TrailingComma(data); ok {
		return &Problem{Pos: Pos{File: file, Line: line, Col: col}, Severity: SevError, Code: CodeSyntax,
			Msg: fmt.Sprintf("invalid JSON: trailing comma before '%c'", closer)}
	}
	return nil
}
