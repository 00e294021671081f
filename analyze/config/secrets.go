package config

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// maxMsg caps one problem message: values in it are capped already, this
// bounds the rest (a path or a list built from the input).
const maxMsg = 1000

// safeMsg is s escaped and capped at maxMsg bytes, the "…(N more bytes)"
// note included, so that applying it again (loader stages, sanitize and
// Problem.Error each do) changes nothing: capping a capped message again
// would count the note as the bytes left out.
func safeMsg(s string) string {
	s = Escape(s)
	if len(s) <= maxMsg {
		return s
	}
	note := len("…( more bytes)") + len(strconv.Itoa(len(s)))
	return Truncate(s, maxMsg-note)
}

// sanitize makes every message safe to print, also those of stages that
// build a Problem themselves (YAML syntax errors quote the input).
func (ps Problems) sanitize() {
	for i := range ps {
		ps[i].Msg = safeMsg(ps[i].Msg)
	}
}

// secrecy is the secret-bearing scope a decoder is in, and how a value
// read there may be cited in a problem.
type secrecy struct {
	// secret names the secret-bearing field being decoded ("" outside
	// one): its values are recorded in Sources and never quoted.
	secret string
	// secretHeader is set inside a header matcher or header value whose
	// name carries a credential (Authorization, Cookie, …).
	secretHeader bool
}

// isSecret reports whether field k holds a credential: by its name or
// message type (secret, from msgInfo), or as the value of a credential
// header.
func (s *secrecy) isSecret(k node, secret bool) bool {
	return secret || s.secretHeader && k.Value() != "key" && k.Value() != "name"
}

// headerMessages are the messages that pair a header name with a value.
var headerMessages = map[protoreflect.FullName]string{
	"envoy.config.core.v3.HeaderValue":    "key",
	"envoy.config.route.v3.HeaderMatcher": "name",
}

// headerNamed reports whether n, a header matcher or value whose header
// name is under key, is for a header that carries a credential.
func headerNamed(key string, n node) bool {
	if n.Kind() != mappingNode {
		return false
	}
	for i := 0; i+1 < n.Len(); i += 2 {
		if n.Child(i).Value() == key && n.Child(i+1).Kind() == scalarNode {
			return IsSecretHeader(n.Child(i + 1).Value())
		}
	}
	return false
}

// value cites a scalar in a message: quoted, escaped and capped, or
// withheld inside a secret-bearing field.
func (s *secrecy) value(n node) string {
	if s.secret != "" {
		return "a value that is not shown (\"" + s.secret + "\" holds a secret)"
	}
	return Quote(n.Value())
}

// found describes a bad scalar after "found": its kind and quoted value,
// or only that it is withheld.
func (s *secrecy) found(n node) string {
	if s.secret != "" {
		return s.value(n)
	}
	return kindName(n) + " " + Quote(n.Value())
}

// fieldName names fd in a message, with the secret field it is under.
func (s *secrecy) fieldName(fd protoreflect.FieldDescriptor) string {
	name := "\"" + string(fd.Name()) + "\""
	if s.secret != "" && s.secret != string(fd.Name()) {
		name += " (under \"" + s.secret + "\")"
	}
	return name
}

// secretSpans remembers where secret values are written, so snippets mask
// them and the output guard can redact them.
type secretSpans struct {
	starts map[string]map[int][]int // file -> line -> columns where a secret scalar starts
	whole  map[string]map[int]bool  // file -> lines entirely inside a secret value
	values map[string]bool          // the values (and their lines) themselves
}

// init makes sp's maps before a first record.
func (sp *secretSpans) init() {
	if sp.starts == nil {
		*sp = secretSpans{starts: map[string]map[int][]int{}, whole: map[string]map[int]bool{}, values: map[string]bool{}}
	}
}

// addValues records every scalar under n (keys too) as secret; texts gives
// the lines a multi-line value goes on over. Aliases are not followed:
// their anchors are recorded where they are written.
func (sp *secretSpans) addValues(texts *fileTexts, file string, n node) {
	sp.init()
	var walk func(n node, depth int)
	walk = func(n node, depth int) {
		if !n.OK() || depth > 100 {
			return
		}
		switch n.Kind() {
		case scalarNode:
			sp.addScalar(texts, file, n)
		case mappingNode:
			for i := 1; i < n.Len(); i += 2 { // values: keys are field names
				walk(n.Child(i), depth+1)
			}
		case sequenceNode:
			for ci := range n.Len() {
				c := n.Child(ci)
				walk(c, depth+1)
			}
		}
	}
	walk(n, 0)
}

func (sp *secretSpans) addScalar(texts *fileTexts, file string, n node) {
	if n.Line() < 1 {
		return
	}
	if sp.starts[file] == nil {
		sp.starts[file], sp.whole[file] = map[int][]int{}, map[int]bool{}
	}
	sp.starts[file][n.Line()] = append(sp.starts[file][n.Line()], n.Col())
	for _, v := range append(strings.Split(n.Value(), "\n"), n.Value()) {
		if v = strings.TrimSpace(v); len(v) >= minSecret {
			sp.values[v] = true
		}
	}
	// A value that does not end on its first line (a block scalar, a
	// folded plain or quoted one) goes on over the lines indented more
	// than the line it starts on.
	count := texts.lineCount(file)
	if n.Line() > count {
		return
	}
	first := texts.Line(file, n.Line())
	if _, more := scalarEnd(first, byteOffset(first, n.Col()-1)); !more {
		return
	}
	// The key's column: past the indentation and any "- " of a list item.
	indent := len(first) - len(strings.TrimLeft(first, " \t-"))
	for i := n.Line(); i < count; i++ {
		l := texts.Line(file, i+1)
		if t := strings.TrimLeft(l, " \t"); t != "" && len(l)-len(t) <= indent {
			break
		}
		sp.whole[file][i+1] = true
	}
}

// minSecret is the shortest secret value the output guard redacts: shorter
// ones ("80", "true") would blank out unrelated text.
const minSecret = 8

// scalarEnd is the byte offset just after the scalar that starts at
// line[off:], and whether it may go on over the next lines. It errs on
// the side of masking too much: a plain scalar runs to the line's end.
func scalarEnd(line string, off int) (end int, more bool) {
	if off < 0 || off >= len(line) {
		return len(line), true
	}
	rest := line[off:]
	switch rest[0] {
	case '|', '>':
		return len(line), true
	case '"':
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return off + i + 1, false
			}
		}
		return len(line), true
	case '\'':
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\'' {
				if i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				return off + i + 1, false
			}
		}
		return len(line), true
	}
	if open := strings.Count(line[:off], "{") + strings.Count(line[:off], "["); open > strings.Count(line[:off], "}")+strings.Count(line[:off], "]") {
		// Plain scalar in flow style: it ends at the next indicator.
		if i := strings.IndexAny(rest, ",]}"); i >= 0 {
			return off + i, false
		}
	}
	if i := strings.Index(rest, " #"); i >= 0 {
		return off + i, true
	}
	return len(line), true
}

// Secrets lists the secret values the input holds (each at least
// minSecret bytes), longest first, for the output guard.
func (s *Sources) Secrets() []string {
	var out []string
	for v := range s.secrets.values {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	return out
}

// masked is line n of file with every secret value replaced by '*'.
func (s *Sources) masked(file string, n int) string {
	l := s.Line(file, n)
	if s.secrets.whole[file][n] {
		t := strings.TrimLeft(l, " \t")
		return l[:len(l)-len(t)] + strings.Repeat("*", min(len(t), 8))
	}
	cols := s.secrets.starts[file][n]
	if len(cols) == 0 {
		return l
	}
	b := []byte(l)
	for _, c := range cols {
		// yaml.v3 counts columns in characters; convert to a byte offset.
		off := byteOffset(l, c-1)
		end, _ := scalarEnd(l, off)
		for i := off; i < end; i++ {
			b[i] = '*'
		}
	}
	return string(b)
}

func byteOffset(s string, chars int) int {
	off := 0
	for i := 0; i < chars && off < len(s); i++ {
		_, n := utf8.DecodeRuneInString(s[off:])
		off += n
	}
	return off
}

// runeAround is where the valid multi-byte rune that byte offset i falls
// inside starts, and its size; i itself when i starts a rune or the bytes
// around it are not valid UTF-8 (each invalid byte stands alone).
func runeAround(s string, i int) (start, size int) {
	for k := i - 1; k >= 0 && k > i-utf8.UTFMax; k-- {
		if utf8.RuneStart(s[k]) {
			if r, n := utf8.DecodeRuneInString(s[k:]); (r != utf8.RuneError || n > 1) && k+n > i {
				return k, n
			}
			break
		}
	}
	return i, 0
}

// SnippetWidth is how many bytes of a source line a snippet shows.
const SnippetWidth = 120

// Snippet is line n of file as a finding shows it: secrets masked, at most
// SnippetWidth bytes around column col ("..." marks what is cut), control
// characters and option delimiters escaped; caret is how many columns
// precede col in it. ok is false when there is no such line.
func (s *Sources) Snippet(file string, n, col int) (text string, caret int, ok bool) {
	l := s.masked(file, n)
	if l == "" || col < 1 {
		return "", 0, false
	}
	l = strings.ReplaceAll(l, "\t", " ")
	at := min(byteOffset(l, col-1), len(l))
	start, end := 0, len(l)
	if len(l) > SnippetWidth {
		start = max(0, min(at-SnippetWidth/2, len(l)-SnippetWidth))
		end = min(len(l), start+SnippetWidth)
		if k, size := runeAround(l, start); k < start {
			start = k + size // the window starts after a rune it would split
		}
		end, _ = runeAround(l, end)
		end = max(end, start)
	}
	at = min(max(at, start), end)
	pre, post := "", ""
	if start > 0 {
		pre = "..."
	}
	if end < len(l) {
		post = "..."
	}
	before := pre + escapeInput(l[start:at])
	return before + escapeInput(l[at:end]) + post, utf8.RuneCountInString(before), true
}
