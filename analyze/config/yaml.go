package config

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// parseDocuments reads every document of a YAML (or JSON) stream into nodes
// with positions (parse.Tree: yaml.v3's nodes are converted and dropped).
// yaml.v3 follows YAML 1.2 for plain scalars (`yes` is a string), and JSON
// is valid YAML 1.2, so one parser serves both; plain JSON takes a faster
// scanner that builds the same nodes (parse.ParseJSON); where yaml-cpp
// (Envoy's parser) accepts more, yamlcpp.go bridges the gap.
func parseDocuments(file string, data []byte) ([]node, Problems) {
	return parseText(file, string(data), Limits{})
}

// parseText is parseDocuments on the text Sources keeps, within the node
// budgets of lim (budget.go).
func parseText(file, text string, lim Limits) ([]node, Problems) {
	b := lim.budget()
	// The fast path takes only printable ASCII JSON without trailing
	// commas, which the two checks below would pass: it goes first.
	root, ok, over := parseJSONLimited(text, b.jsonNodes)
	if over >= 0 {
		line, col := parse.OffsetLineCol(text, over)
		return nil, Problems{*b.tooManyNodes(file, line, col, b.jsonNodes, MaxJSONNodes)}
	}
	if ok {
		treeOf(root).File = file
		if treeOf(root).Deep {
			if p := checkExpansion(file, root, b.aliasNodes); p != nil {
				return nil, Problems{*p}
			}
		}
		var probs Problems
		checkDuplicateKeys(file, root, true, &probs)
		return []node{root}, probs
	}
	data := []byte(text)
	if p := checkEncoding(file, data); p != nil {
		return nil, Problems{*p}
	}
	if p := checkJSONCommas(file, data); p != nil {
		return nil, Problems{*p}
	}
	// yaml.v3's own tree is the peak: bounded before it is built.
	if p := b.preScanYAML(file, data); p != nil {
		return nil, Problems{*p}
	}
	docs, probs := parseStream(file, data, b.aliasNodes)
	if len(probs) > 0 {
		if fixed, ok := untabComments(data); ok {
			docs, probs = parseStream(file, fixed, b.aliasNodes)
		}
	}
	return withoutTemplates(file, data, docs, probs)
}

func parseStream(file string, data []byte, maxAlias int) ([]node, Problems) {
	var probs Problems
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []node
	t := &tree{File: file}
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			probs = append(probs, syntaxProblem(file, data, err))
			break
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			root := t.FromYAML(n.Content[0])
			if p := checkExpansion(file, root, maxAlias); p != nil {
				probs = append(probs, *p)
				continue
			}
			checkDuplicateKeys(file, root, strings.HasSuffix(strings.ToLower(file), ".json"), &probs)
			docs = append(docs, root)
		}
	}
	t.Fit() // appends left up to half of the tree unused
	return docs, probs
}

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// syntaxProblem turns a yaml.v3 error ("yaml: line 3: did not find ...")
// into a positioned problem. yaml.v3 gives a line but no column, so the
// column is found in that line (syntaxColumn).
func syntaxProblem(file string, data []byte, err error) Problem {
	msg := err.Error()
	line := 1
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
	return Problem{Pos: Pos{File: file, Line: line, Col: syntaxColumn(lineOf(data, line), msg)}, Severity: SevError, Code: CodeSyntax, Msg: "invalid YAML: " + msg}
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

func kindName(n node) string {
	switch n.Kind() {
	case mappingNode:
		return "a mapping"
	case sequenceNode:
		return "a list"
	case scalarNode:
		switch n.ShortTag() {
		case "!!str":
			return "a string"
		case "!!int":
			return "an integer"
		case "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!null":
			return "null"
		}
		return "a scalar"
	}
	return "a node"
}
