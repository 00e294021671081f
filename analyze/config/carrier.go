package config

import (
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// carrier reads an object that carries an Envoy resource in its one
// document-like string field ({name, value: "<Cluster as YAML>"}, as some
// control planes' CRDs hold them), like a ConfigMap's data string. An item
// under a kind's key is tried as a carrier first: its own keys (a lone
// name) are not the resource's.
func (f *finder) carrier(n node) bool {
	doc := carried(n)
	return doc.OK() && f.embedded(doc)
}

// carried is the one document-like string of a mapping whose other fields
// are scalars (labels such as a name), or no node.
func carried(n node) node {
	var doc node
	if n.Kind() != mappingNode {
		return doc
	}
	for i := 1; i < n.Len(); i += 2 {
		v := parse.Resolve(n.Child(i))
		switch {
		case v.Kind() != scalarNode:
			return node{}
		case documentLike(v):
			if doc.OK() {
				return node{}
			}
			doc = v
		}
	}
	return doc
}

// documentLike reports a string that may be a YAML or JSON document, the
// cheap test embedded makes before parsing.
func documentLike(s node) bool {
	v := s.Value()
	return s.ShortTag() == "!!str" && strings.Contains(v, ":") &&
		(strings.Contains(v, "\n") || strings.HasPrefix(strings.TrimSpace(v), "{"))
}
