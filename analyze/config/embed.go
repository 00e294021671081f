package config

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// embedded reads a string value that is itself an Envoy document (a
// ConfigMap's `envoy.yaml: |`). Its nodes are placed in the user's file: a
// block scalar's content starts on the line after the indicator, at the
// block's indentation, line for line. A quoted or plain scalar's content
// cannot be placed line for line (escapes, folding): all of it is placed
// at the scalar's own start.
func (f *finder) embedded(s node) bool {
	v := s.Value()
	if f.nest >= maxEmbedNesting || !documentLike(s) {
		return false
	}
	// The string is part of a file already within --max-input: its own
	// length bounds its nodes.
	docs, probs := parseText(f.file, v, Limits{MaxInput: int64(len(v))})
	if len(docs) == 0 {
		return false
	}
	for _, p := range probs {
		// Only a string that parses is read; a repeated key (two
		// branches of a template) is not a reason to skip it.
		if p.Code != CodeDuplicateKey {
			return false
		}
	}
	f.place(treeOf(docs[0]), s)
	for _, p := range probs {
		f.probs = append(f.probs, f.placeProblem(p, s))
	}
	f.nest++
	defer func() { f.nest-- }()
	before := len(f.units)
	inner := &finder{file: f.file, src: f.src, nest: f.nest}
	for _, d := range docs {
		inner.document(d)
	}
	// Only what the string holds counts: its own unknown parts are the
	// string's, not the file's, and the string is skipped whole if none.
	f.probs = append(f.probs, inner.probs...)
	for _, u := range inner.units {
		if u.kind == "" && isNull(parse.Resolve(u.node)) {
			continue
		}
		f.units = append(f.units, u)
	}
	return len(f.units) > before
}

// place moves t's positions from the string's own to the file's.
func (f *finder) place(t *tree, s node) {
	line, col := s.LineCol()
	block := s.Style()&(parse.StyleLiteral|parse.StyleFolded) != 0
	indent := 0
	if block {
		indent = f.blockIndent(line)
	}
	t.Reposition(func(l, c int) (int, int) {
		if block {
			return line + l, c + indent
		}
		return line, col
	})
}

// placeProblem moves p's position from the string's own to the file's, as
// place does for nodes (its message names lines of the string: those are
// moved too).
func (f *finder) placeProblem(p Problem, s node) Problem {
	line, col := s.LineCol()
	block := s.Style()&(parse.StyleLiteral|parse.StyleFolded) != 0
	if !block {
		p.Pos.Line, p.Pos.Col = line, col
		return p
	}
	p.Pos.Line += line
	p.Pos.Col += f.blockIndent(line)
	p.Msg = atLineRE.ReplaceAllStringFunc(p.Msg, func(m string) string {
		n, _ := strconv.Atoi(atLineRE.FindStringSubmatch(m)[1])
		return "at line " + strconv.Itoa(n+line)
	})
	return p
}

// atLineRE is where a duplicate key's message names a line.
var atLineRE = regexp.MustCompile(`at line (\d+)`)

// blockIndent is the indentation of a block scalar whose indicator is on
// line: that of its first line that is not blank.
func (f *finder) blockIndent(line int) int {
	if f.src == nil {
		return 0
	}
	for n := line + 1; n <= f.src.lineCount(f.file); n++ {
		text := f.src.Line(f.file, n)
		if trimmed := strings.TrimLeft(text, " "); trimmed != "" {
			return len(text) - len(trimmed)
		}
	}
	return 0
}
