package config

import (
	"bytes"
	"errors"
	"io"
	"strings"

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
			checkDuplicateKeys(file, root, strings.HasSuffix(strings.ToLower(configName(file)), ".json"), &probs)
			docs = append(docs, root)
		}
	}
	t.Fit() // appends left up to half of the tree unused
	return docs, probs
}

// syntaxProblem turns a yaml.v3 error ("yaml: line 3: did not find ...")
// into a positioned problem (parse.SyntaxPos).
func syntaxProblem(file string, data []byte, err error) Problem {
	line, col, msg := parse.SyntaxPos(data, err)
	return Problem{Pos: Pos{File: file, Line: line, Col: col}, Severity: SevError, Code: CodeSyntax, Msg: "invalid YAML: " + msg}
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
