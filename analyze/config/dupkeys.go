package config

import (
	"strconv"
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
	switch n.kind() {
	case mappingNode:
		var seen map[string]node // only for large mappings
		if n.len() > 2*smallMapping {
			seen = map[string]node{}
		}
		dups := false
		for i := 0; i+1 < n.len(); i += 2 {
			k := n.child(i)
			var first node
			ok := false
			if seen != nil {
				first, ok = seen[k.value()]
			} else {
				first, ok = earlierKey(n, i)
			}
			if ok && k.kind() == scalarNode {
				dups = true
				*probs = append(*probs, duplicateKeyProblem(file, n, i, first, json))
			} else if seen != nil {
				seen[k.value()] = k
			}
			checkDuplicateKeys(file, n.child(i+1), json, probs)
		}
		if dups && !json {
			keepLastPairs(n)
		}
	case sequenceNode:
		for ci := range n.len() {
			c := n.child(ci)
			checkDuplicateKeys(file, c, json, probs)
		}
	case aliasNode:
		// Anchored content is checked where it is defined.
	}
}

// duplicateKeyProblem is the problem of key i of mapping n, a repeat of
// first.
func duplicateKeyProblem(file string, n node, i int, first node, json bool) Problem {
	k := n.child(i)
	pr := Problem{Pos: nodePos(file, k), Severity: SevError, Code: CodeDuplicateKey,
		Msg: "duplicate key \"" + k.value() + "\" (first at line " + strconv.Itoa(first.line()) + ")"}
	if json {
		pr.Msg += ": protobuf's JSON parser rejects a field that has already been set, so Envoy rejects the file"
		return pr
	}
	last := i
	for j := i + 2; j+1 < n.len(); j += 2 {
		if n.child(j).value() == k.value() && n.child(j).kind() == scalarNode {
			last = j
		}
	}
	firstVal := firstValue(n, first)
	if sameNode(firstVal, n.child(i+1)) {
		pr.Severity = SevInfo
		pr.Msg += ": the two values are equal, so Envoy's YAML loader (which keeps the last) reads the same config"
		return pr
	}
	// A warning until dupConsequences finds what the first value changes.
	pr.Severity = SevWarning
	n.t.dupAlts = append(n.t.dupAlts, dupAlt{mapping: n, key: k, first: firstVal})
	v := n.child(last + 1)
	used := "the value at line " + strconv.Itoa(v.line())
	if v.kind() == scalarNode && len(v.value()) <= 64 {
		used += " (" + strconv.Quote(v.value()) + ")"
	}
	pr.Msg += " with a different value: Envoy's YAML loader keeps the last, " + used + ", and ignores the others"
	return pr
}

// firstValue is the value of key node k in mapping n.
func firstValue(n node, k node) node {
	for j := 0; j+1 < n.len(); j += 2 {
		if n.child(j) == k {
			return n.child(j + 1)
		}
	}
	return node{}
}

// sameNode: a and b are the same value (kind, tag, text and children).
func sameNode(a, b node) bool {
	a, b = resolve(a), resolve(b)
	if a.kind() != b.kind() || a.len() != b.len() {
		return false
	}
	if a.kind() == scalarNode {
		return a.shortTag() == b.shortTag() && a.value() == b.value()
	}
	for i := range a.len() {
		if !sameNode(a.child(i), b.child(i)) {
			return false
		}
	}
	return true
}

// keepLastPairs leaves mapping n with only the last pair of each scalar
// key, in place, as Envoy's loader does.
func keepLastPairs(n node) {
	lastAt := map[string]int{}
	for i := 0; i+1 < n.len(); i += 2 {
		if k := n.child(i); k.kind() == scalarNode {
			lastAt[k.value()] = i
		}
	}
	kids := make([]int32, 0, n.len())
	for i := 0; i+1 < n.len(); i += 2 {
		k := n.child(i)
		if k.kind() == scalarNode && lastAt[k.value()] != i {
			continue
		}
		kids = append(kids, k.i, n.child(i+1).i)
	}
	n.e().flags &^= flagRun // setKids sets it again only for a run
	n.t.setKids(n.i, kids)
}

// smallMapping: up to this many pairs, keys are compared pairwise rather
// than through a map (most mappings; a map each was most of the loader's
// garbage).
const smallMapping = 8

// earlierKey is the key before key i of mapping n that a map of keys would
// hold for its value: the first one, or a later non-scalar one (which
// replaced it, as it was not reported).
func earlierKey(n node, i int) (node, bool) {
	v := n.child(i).value()
	var first node
	for j := 0; j < i; j += 2 {
		if k := n.child(j); k.value() == v && (!first.ok() || k.kind() != scalarNode) {
			first = k
		}
	}
	return first, first.ok()
}
