package config

import (
	"bytes"
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// Envoy reads YAML with yaml-cpp (ValueUtil::loadFromYaml, then
// parseYamlNode in source/common/protobuf/yaml_utility.cc), which accepts a
// few things yaml.v3 does not. This file bridges those differences so that
// lbctl accepts exactly what Envoy accepts.

// untabComments replaces the tabs in the indentation of comment-only lines
// by spaces, and reports whether it changed anything. yaml-cpp eats tabs as
// whitespace before a comment (src/scanner.cpp: IsWhitespaceToBeEaten,
// ScanToNextToken); yaml.v3 rejects a tab where indentation is expected.
// A tab and a space are both one column, so positions do not move.
func untabComments(data []byte) ([]byte, bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	changed := false
	for i, line := range lines {
		rest := bytes.TrimLeft(line, " \t")
		ws := line[:len(line)-len(rest)]
		if len(rest) == 0 || rest[0] != '#' || bytes.IndexByte(ws, '\t') < 0 {
			continue
		}
		fixed := append(bytes.ReplaceAll(ws, []byte("\t"), []byte(" ")), rest...)
		lines[i] = fixed
		changed = true
	}
	if !changed {
		return data, false
	}
	return bytes.Join(lines, nil), true
}

// yamlCppBool reads a plain scalar as yaml-cpp's convert<bool>::decode
// does (src/convert.cpp): y/n, yes/no, true/false, on/off, each in
// lowercase, UPPERCASE or Capitalised form. Envoy's parseYamlNode tries it
// on every unquoted scalar; a quoted one (tag "!") stays a string.
func yamlCppBool(n node) (value, ok bool) {
	if n.Kind() != scalarNode || n.Style()&(parse.StyleDoubleQuoted|parse.StyleSingleQuoted|parse.StyleLiteral|parse.StyleFolded) != 0 {
		return false, false
	}
	s := n.Value()
	if s == "" || !flexibleCase(s) {
		return false, false
	}
	switch strings.ToLower(s) {
	case "y", "yes", "true", "on":
		return true, true
	case "n", "no", "false", "off":
		return false, true
	}
	return false, false
}

// flexibleCase is yaml-cpp's IsFlexibleCase: all lowercase, or a capital
// followed by all lowercase or all uppercase (ASCII letters only).
func flexibleCase(s string) bool {
	lower := func(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 }
	upper := func(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return r < 'A' || r > 'Z' }) < 0 }
	if lower(s) {
		return true
	}
	return s[0] >= 'A' && s[0] <= 'Z' && (lower(s[1:]) || upper(s[1:]))
}

// templatePlaceholders finds unrendered Go/Helm template placeholders,
// which YAML reads as a flow mapping whose only key is another flow
// mapping: `port_value: {{.Port}}`. Envoy cannot load such a file, and
// every value read from one would be wrong, so the document is reported
// once per placeholder and not read further.
func templatePlaceholders(file string, n node, lines []string, probs *Problems) {
	if !n.OK() {
		return
	}
	if isPlaceholder(n) {
		*probs = append(*probs, Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeSyntax,
			Msg: "unrendered template placeholder " + placeholderText(n, lines) + ": render the template before checking it (the rest of this document is not read)"})
		return
	}
	for ci := range n.Len() {
		c := n.Child(ci)
		templatePlaceholders(file, c, lines, probs)
	}
}

func isPlaceholder(n node) bool {
	if n.Kind() != mappingNode || n.Style()&parse.StyleFlow == 0 || n.Len() != 2 {
		return false
	}
	k, v := n.Child(0), n.Child(1)
	return k.Kind() == mappingNode && k.Style()&parse.StyleFlow != 0 && isNull(v) && v.Value() == ""
}

// placeholderText is the placeholder as written, when it is short and
// printable; otherwise a generic spelling.
func placeholderText(n node, lines []string) string {
	if n.Line() >= 1 && n.Line() <= len(lines) {
		line := lines[n.Line()-1]
		if start := n.Col() - 1; start >= 0 && start < len(line) {
			if end := strings.Index(line[start:], "}}"); strings.HasPrefix(line[start:], "{{") && end > 0 && end < 80 {
				text := line[start : start+end+2]
				if strings.IndexFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f }) < 0 {
					return text
				}
			}
		}
	}
	return "{{…}}"
}

// withoutTemplates drops the documents that hold template placeholders,
// each placeholder reported once.
func withoutTemplates(file string, data []byte, docs []node, probs Problems) ([]node, Problems) {
	if !bytes.Contains(data, []byte("{{")) {
		return docs, probs
	}
	lines := strings.Split(string(data), "\n")
	kept := docs[:0]
	for _, d := range docs {
		before := len(probs)
		templatePlaceholders(file, d, lines, &probs)
		if len(probs) == before {
			kept = append(kept, d)
		}
	}
	return kept, probs
}
