package config

import (
	"strconv"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// checkDuplicateKeys reports a key repeated in one mapping; yaml.v3's Node
// API accepts duplicates silently. What Envoy does depends on the format:
// its YAML loader (yaml_utility.cc parseYamlNode: struct_fields[key] = …)
// keeps the last value, so a YAML mapping is cut to its last pair of each
// key (the decoded config is then Envoy's); a repeat with a different
// value is a warning until dupConsequences finds that the first value
// would change nothing lbctl reports on. Protobuf's JSON parser
// (json/internal/parser.cc ParseField: "has already been set") rejects a
// repeated field: an error for JSON.
func checkDuplicateKeys(file string, n node, json bool, probs *Problems) {
	switch n.Kind() {
	case mappingNode:
		var seen map[string]node // only for large mappings
		if n.Len() > 2*smallMapping {
			seen = map[string]node{}
		}
		dups := false
		for i := 0; i+1 < n.Len(); i += 2 {
			k := n.Child(i)
			var first node
			ok := false
			if seen != nil {
				first, ok = seen[k.Value()]
			} else {
				first, ok = earlierKey(n, i)
			}
			if ok && k.Kind() == scalarNode {
				dups = true
				*probs = append(*probs, duplicateKeyProblem(file, n, i, first, json))
			} else if seen != nil {
				seen[k.Value()] = k
			}
			checkDuplicateKeys(file, n.Child(i+1), json, probs)
		}
		if dups && !json {
			keepLastPairs(n)
		}
	case sequenceNode:
		for ci := range n.Len() {
			c := n.Child(ci)
			checkDuplicateKeys(file, c, json, probs)
		}
	case aliasNode:
		// Anchored content is checked where it is defined.
	}
}

// duplicateKeyProblem is the problem of key i of mapping n, a repeat of
// first.
func duplicateKeyProblem(file string, n node, i int, first node, json bool) Problem {
	k := n.Child(i)
	pr := Problem{Pos: nodePos(file, k), Severity: SevError, Code: CodeDuplicateKey,
		Msg: "duplicate key " + Quote(k.Value()) + " (first at line " + strconv.Itoa(first.Line()) + ")"}
	if json {
		pr.Msg += ": protobuf's JSON parser rejects a field that has already been set, so Envoy rejects the file"
		return pr
	}
	last := i
	for j := i + 2; j+1 < n.Len(); j += 2 {
		if n.Child(j).Value() == k.Value() && n.Child(j).Kind() == scalarNode {
			last = j
		}
	}
	firstVal := firstValue(n, first)
	if sameNode(firstVal, n.Child(i+1)) {
		pr.Severity = SevInfo
		pr.Msg += ": the two values are equal, so Envoy's YAML loader (which keeps the last) reads the same config"
		return pr
	}
	// A warning until dupConsequences finds what the first value changes.
	pr.Severity = SevWarning
	treeOf(n).Repeats = append(treeOf(n).Repeats, parse.Repeat{Mapping: n, Key: k, First: firstVal})
	v := n.Child(last + 1)
	used := "the value at line " + strconv.Itoa(v.Line())
	if v.Kind() == scalarNode && len(v.Value()) <= 64 {
		used += " (" + strconv.Quote(v.Value()) + ")"
	}
	pr.Msg += " with a different value: Envoy's YAML loader keeps the last, " + used + ", and ignores the others"
	return pr
}

// firstValue is the value of key node k in mapping n.
func firstValue(n node, k node) node {
	for j := 0; j+1 < n.Len(); j += 2 {
		if n.Child(j) == k {
			return n.Child(j + 1)
		}
	}
	return node{}
}

// sameNode: a and b are the same value (kind, tag, text and children).
func sameNode(a, b node) bool {
	a, b = parse.Resolve(a), parse.Resolve(b)
	if a.Kind() != b.Kind() || a.Len() != b.Len() {
		return false
	}
	if a.Kind() == scalarNode {
		return a.ShortTag() == b.ShortTag() && a.Value() == b.Value()
	}
	for i := range a.Len() {
		if !sameNode(a.Child(i), b.Child(i)) {
			return false
		}
	}
	return true
}

// keepLastPairs leaves mapping n with only the last pair of each scalar
// key, in place, as Envoy's loader does.
func keepLastPairs(n node) {
	lastAt := map[string]int{}
	for i := 0; i+1 < n.Len(); i += 2 {
		if k := n.Child(i); k.Kind() == scalarNode {
			lastAt[k.Value()] = i
		}
	}
	kids := make([]int32, 0, n.Len())
	for i := 0; i+1 < n.Len(); i += 2 {
		k := n.Child(i)
		if k.Kind() == scalarNode && lastAt[k.Value()] != i {
			continue
		}
		_, ki := k.Place()
		_, vi := n.Child(i + 1).Place()
		kids = append(kids, ki, vi)
	}
	t, i := n.Place()
	t.SetChildren(i, kids)
}

// smallMapping: up to this many pairs, keys are compared pairwise rather
// than through a map (most mappings; a map each was most of the loader's
// garbage).
const smallMapping = 8

// earlierKey is the key before key i of mapping n that a map of keys would
// hold for its value: the first one, or a later non-scalar one (which
// replaced it, as it was not reported).
func earlierKey(n node, i int) (node, bool) {
	v := n.Child(i).Value()
	var first node
	for j := 0; j < i; j += 2 {
		if k := n.Child(j); k.Value() == v && (!first.OK() || k.Kind() != scalarNode) {
			first = k
		}
	}
	return first, first.OK()
}
