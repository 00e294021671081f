package parse

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// CountYAMLNodes bounds the nodes yaml.v3 would build for data before it
// builds them: every node but an empty one starts a word (a run of
// characters other than blanks and ",[]{}"), and an empty one follows a
// ':', a '-' or a '[' / '{' that is counted as a word or a bracket;
// comments are skipped. The count is at least about the nodes for real
// YAML (quoted strings and block scalars with blanks count more), and it
// costs one pass over the bytes. Past max, over is true and line and col
// place the word that passes it (in characters, as yaml.v3's).
func CountYAMLNodes(data []byte, max int) (line, col int, over bool) {
	count := 0
	line, col = 1, 0
	inWord := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c&0xC0 != 0x80 {
			col++
		}
		switch c {
		case '\n':
			line, col, inWord = line+1, 0, false
			continue
		case ' ', '\t', '\r', ',', ']', '}':
			inWord = false
			continue
		case '[', '{':
			inWord = false
			count++
		case '#':
			if !inWord { // a comment: to the end of the line
				for i+1 < len(data) && data[i+1] != '\n' {
					i++
				}
				continue
			}
		default:
			if inWord {
				continue
			}
			inWord = true
			count++
		}
		if count > max {
			return line, col, true
		}
	}
	return 0, 0, false
}

// TrailingComma finds the first comma outside strings that only blanks
// separate from the '}' or ']' after it, in JSON text: line and col place
// the comma (col in characters), closer is the bracket.
func TrailingComma(data []byte) (line, col int, closer rune, ok bool) {
	line, col = 1, 1
	inString, escaped := false, false
	commaLine, commaCol := 0, 0 // the last comma outside strings, if only blanks followed
	for _, r := range string(data) {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case r == '\\':
				escaped = true
			case r == '"':
				inString = false
			}
		case r == '"':
			inString, commaLine = true, 0
		case r == ',':
			commaLine, commaCol = line, col
		case r == '}' || r == ']':
			if commaLine > 0 {
				return commaLine, commaCol, r, true
			}
		case r == ' ' || r == '\t' || r == '\r' || r == '\n':
		default:
			commaLine = 0
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return 0, 0, 0, false
}

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// SyntaxPos places a yaml.v3 error ("yaml: line 3: did not find ...") in
// data: yaml.v3 gives a line but no column, so the column is found in that
// line (syntaxColumn); msg is the error without its "yaml: line N:" prefix.
func SyntaxPos(data []byte, err error) (line, col int, msg string) {
	msg = err.Error()
	line = 1
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = m[2]
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	return line, syntaxColumn(lineOf(data, line), msg), msg
}

// valueColon is the index of the first ':' at or after from that is
// followed by a blank or the end of the line, or -1.
func valueColon(line string, from int) int {
	for i := from; i < len(line); i++ {
		if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			return i
		}
	}
	return -1
}

// lineOf is line n (from 1) of data, without its newline.
func lineOf(data []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return ""
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return strings.TrimSuffix(string(data), "\r")
}

// syntaxColumn is the column (from 1, in characters) in line that the
// scanner's message names: the character that cannot start a token, the
// colon of a nested mapping value, else the line's first character.
func syntaxColumn(line, msg string) int {
	at := -1
	switch {
	case strings.Contains(msg, "tab character"):
		at = strings.IndexByte(line, '\t')
	case strings.Contains(msg, "cannot start any token"):
		at = strings.IndexAny(line, "\t@`")
	case strings.Contains(msg, "mapping values are not allowed"):
		// The scanner stops at the value indicator that opens the nested
		// mapping: the second "key:" of "a: b: c", else the only one (a
		// plain scalar continued from the line above).
		if first := valueColon(line, 0); first >= 0 {
			at = first
			if second := valueColon(line, first+1); second >= 0 {
				at = second
			}
		}
	}
	if at < 0 {
		at = len(line) - len(strings.TrimLeft(line, " \t-"))
		if at == len(line) {
			at = 0
		}
	}
	return utf8.RuneCountInString(line[:at]) + 1
}
