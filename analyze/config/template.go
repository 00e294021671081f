package config

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Templates: placeholders ({{ … }}, ${VAR}, $var, and bare upper-case
// tokens such as HOST_PORT that a launch script replaces) are read as
// unknown values. Each is replaced, before parsing, by a sentinel of the
// same width (columns stay right); template control lines become blank.
// The decoder leaves a sentinel unset where a number, a flag or a message
// is due and marks the messages around it (markUnknown), and lint drops
// the findings that stand there: they would depend on the unknown value.

// sentinel starts every replaced placeholder (a character no Envoy config
// holds).
const sentinel = '¤'

var (
	// tplControl is a line of template actions only ({{- if … }}, {{ end }}).
	tplControl = regexp.MustCompile(`^\s*(\{\{-?\s*[-.$A-Za-z/"(].*?\}\}\s*)+$`)
	tplAction  = regexp.MustCompile(`\{\{-?\s*[-.$A-Za-z/"(].*?\}\}`)
	tplEnv     = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-=?+][^}\n]*)?\}`)
	tplVar     = regexp.MustCompile(`(^|[\s:\[,"'=-])(\$[A-Za-z_][A-Za-z0-9_]*)\b`)
	// tplBare is an upper-case token where a port or an address is due.
	tplBare = regexp.MustCompile(`^(\s*-?\s*(?:port_value|portValue|port|address)\s*:\s*["']?)([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{4,})(["']?\s*(#.*)?)$`)
	// tplBareFlow is the same inside a flow mapping ({address: HOST_IP, …}).
	// The token must end the value (a comma or brace follows: see bareFlow).
	tplBareFlow = regexp.MustCompile(`[{,]\s*["']?(?:port_value|portValue|port|address)["']?\s*:\s*["']?([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{4,})\b`)
)

// templated is what detemplate replaced in one file.
type templated struct {
	n     int   // placeholders replaced
	col   int   // column of the first
	lines []int // lines holding a placeholder, ascending
	first string
	bare  bool // bare upper-case tokens among them
}

// detemplate returns text with its placeholders replaced, and what was.
func detemplate(text string) (string, *templated) {
	lines := strings.Split(text, "\n")
	var t templated
	changed := false
	for i, line := range lines {
		out := line
		if !strings.ContainsAny(line, "{$") && !upperValue(line) || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		// Each pattern runs only where the text it needs is on the line:
		// a JSON dump has a brace on most lines and no placeholder.
		action := strings.Contains(line, "{{")
		if action && tplControl.MatchString(line) {
			out = strings.Repeat(" ", len(line))
		} else {
			if action {
				out = tplAction.ReplaceAllStringFunc(out, t.replace())
			}
			if strings.Contains(out, "${") {
				out = tplEnv.ReplaceAllStringFunc(out, t.replace())
			}
			if strings.IndexByte(out, '$') >= 0 {
				out = tplVar.ReplaceAllStringFunc(out, func(m string) string {
					sub := tplVar.FindStringSubmatch(m)
					return sub[1] + t.replace()(sub[2])
				})
			}
			if upperAfterKey(out) {
				if m := tplBare.FindStringSubmatch(out); m != nil {
					out = m[1] + t.replace()(m[2]) + m[3]
					t.bare = true
				}
				out = t.bareFlow(out)
			}
		}
		if out != line {
			if len(t.lines) == 0 {
				t.col = firstDiff(line, out)
			}
			lines[i] = out
			t.lines = append(t.lines, i+1)
			changed = true
		}
	}
	if !changed {
		return text, nil
	}
	return strings.Join(lines, "\n"), &t
}

// bareFlow replaces the bare tokens of a flow mapping's port and address
// values: a token followed, after an optional quote and spaces, by a comma
// or a closing brace. The caller checks upperAfterKey first.
func (t *templated) bareFlow(line string) string {
	var b strings.Builder
	last := 0
	for _, m := range tplBareFlow.FindAllStringSubmatchIndex(line, -1) {
		rest := strings.TrimLeft(line[m[3]:], "\"' \t")
		if rest == "" || rest[0] != ',' && rest[0] != '}' {
			continue
		}
		b.WriteString(line[last:m[2]])
		b.WriteString(t.replace()(line[m[2]:m[3]]))
		last = m[3]
		t.bare = true
	}
	if last == 0 {
		return line
	}
	b.WriteString(line[last:])
	return b.String()
}

// upperAfterKey reports a port or address key followed, as tplBareFlow and
// tplBare require, by an optional quote, a colon, an optional quote and an
// upper-case letter: a necessary condition for either to match.
func upperAfterKey(line string) bool {
	for _, key := range [...]string{"port", "address"} {
		for rest := line; ; {
			i := strings.Index(rest, key)
			if i < 0 {
				break
			}
			rest = rest[i+len(key):]
			v := rest
			if key == "port" {
				if after, ok := strings.CutPrefix(v, "_value"); ok {
					v = after
				} else if after, ok := strings.CutPrefix(v, "Value"); ok {
					v = after
				}
			}
			v = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(v, "\""), "'"), " \t\r\f\v")
			if !strings.HasPrefix(v, ":") {
				continue
			}
			v = strings.TrimLeft(v[1:], " \t\r\f\v")
			v = strings.TrimPrefix(strings.TrimPrefix(v, "\""), "'")
			if v != "" && v[0] >= 'A' && v[0] <= 'Z' {
				return true
			}
		}
	}
	return false
}

// replace gives a placeholder's sentinel: the sentinel then letters, as
// many characters as the placeholder (two placeholders differ, so two
// unknown addresses are not one address).
func (t *templated) replace() func(string) string {
	return func(p string) string {
		if t.first == "" {
			t.first = printable(p)
		}
		n := len([]rune(p))
		t.n++
		id := strconv.FormatInt(int64(t.n), 36)
		s := string(sentinel) + id
		for len([]rune(s)) < n {
			s += "x"
		}
		if r := []rune(s); len(r) > n {
			s = string(r[:n])
		}
		return s
	}
}

// notice is the one info problem of a templated file.
func (t *templated) notice(file string) Problem {
	msg := "template placeholders (" + t.first + " first) read as unknown values; findings that depend on them are not reported"
	if t.bare {
		msg += " (upper-case tokens where a port or an address is due are taken as placeholders)"
	}
	return Problem{Pos: Pos{File: file, Line: t.lines[0], Col: t.col}, Severity: SevInfo, Code: CodeSyntax, Msg: msg}
}

// hasSentinel reports a scalar holding a replaced placeholder.
func hasSentinel(n node) bool {
	return n.Kind() == scalarNode && strings.ContainsRune(n.Value(), sentinel)
}

// unknowns are the line spans of file that hold unknown values.
type unknowns struct {
	mu    sync.Mutex
	spans map[string][][2]int
}

// markUnknown records the messages around an unknown value: the innermost
// and up to three enclosing ones while they are short (a socket address up
// to its LbEndpoint, not the cluster).
func (u *unknowns) markUnknown(file string, stack []node) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.spans == nil {
		u.spans = map[string][][2]int{}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		first, last := stack[i].Line(), lastLine(stack[i], 0)
		if i < len(stack)-4 || i < len(stack)-1 && last-first > 10 {
			break
		}
		u.spans[file] = append(u.spans[file], [2]int{first, last})
	}
}

// Unknown reports a position inside a message holding a template
// placeholder's unknown value.
func (u *unknowns) Unknown(p Pos) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, sp := range u.spans[p.File] {
		if p.Line >= sp[0] && p.Line <= sp[1] {
			return true
		}
	}
	return false
}

// lastLine is the last line n's subtree starts a node on.
func lastLine(n node, depth int) int {
	last := n.Line()
	if depth > MaxDepth {
		return last
	}
	for i := range n.Len() {
		if l := lastLine(n.Child(i), depth+1); l > last {
			last = l
		}
	}
	return last
}

// upperValue reports a line ending in an upper-case letter, digit or '_'
// after a colon: a candidate for tplBare, which is dearer to run.
func upperValue(line string) bool {
	line = strings.TrimRight(line, " \t\r\"'")
	if line == "" || strings.IndexByte(line, ':') < 0 {
		return false
	}
	c := line[len(line)-1]
	return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// firstDiff is the column (in characters, from 1) where a and b differ.
func firstDiff(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for i := range ra {
		if i >= len(rb) || ra[i] != rb[i] {
			return i + 1
		}
	}
	return 1
}
