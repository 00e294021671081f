package config

import (
	"regexp"
	"strconv"
	"strings"
)

// embedded reads a string value that is itself an Envoy document (a
// ConfigMap's `envoy.yaml: |`). Its nodes are placed in the user's file: a
// block scalar's content starts on the line after the indicator, at the
// block's indentation, line for line. A quoted or plain scalar's content
// cannot be placed line for line (escapes, folding): all of it is placed
// at the scalar's own start.
func (f *finder) embedded(s node) bool {
	v := s.value()
	if f.nest >= maxEmbedNesting || s.shortTag() != "!!str" || !strings.Contains(v, ":") ||
		!strings.Contains(v, "\n") && !strings.HasPrefix(strings.TrimSpace(v), "{") {
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
	f.place(docs[0].t, s)
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
		if u.kind == "" && isNull(resolve(u.node)) {
			continue
		}
		f.units = append(f.units, u)
	}
	return len(f.units) > before
}

// place moves t's positions from the string's own to the file's.
func (f *finder) place(t *tree, s node) {
	line, col := s.lineCol()
	block := s.style()&(styleLiteral|styleFolded) != 0
	indent := 0
	if block {
		indent = f.blockIndent(line)
	}
	at := make([][2]int, len(t.nodes))
	for i := range t.nodes {
		l, c := node{t: t, i: int32(i)}.lineCol()
		if block {
			at[i] = [2]int{line + l, c + indent}
		} else {
			at[i] = [2]int{line, col}
		}
	}
	t.offsets = false
	for i := range t.nodes {
		t.nodes[i].flags &^= flagWide
		t.setPos(int32(i), at[i][0], at[i][1])
	}
}

// placeProblem moves p's position from the string's own to the file's, as
// place does for nodes (its message names lines of the string: those are
// moved too).
func (f *finder) placeProblem(p Problem, s node) Problem {
	line, col := s.lineCol()
	block := s.style()&(styleLiteral|styleFolded) != 0
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
