package config

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/config/parse"
	"github.com/lbctl/lbctl/analyze/option"
)

// Node budgets: what one input may make the scanners build, in
// proportion to --max-input, so that any input under the limit answers or
// is refused at a position instead of ending in the runtime's
// out-of-memory crash. yaml.v3 holds its own tree of about 300 bytes a
// node while ours is built (measured: a million one-letter scalars, 3 MB,
// die near 340 MB of heap under ulimit -v 2000000, where --max-input is
// lowered to about 6.6 MB); the JSON fast path's nodes are 20 bytes, but
// 3.2 million of them (6.4 MB) died decoding into a Struct.
const (
	// bytesPerYAMLNode: the YAML budget is one node per this many bytes
	// of --max-input (real configurations run about 1 per 7 to 9 bytes).
	bytesPerYAMLNode = 12
	// minNodes: a budget never below this (tiny --max-input values).
	minNodes = 100_000
	// bytesPerJSONNode: the same for the JSON fast path, whose tree is
	// small but whose nodes decode to protobuf values all the same (a
	// Struct's are ~140 bytes; real JSON runs about 1 node per 8 bytes).
	bytesPerJSONNode = 6
	// MaxYAMLNodes caps the YAML budget whatever --max-input is (about
	// 3 GB of yaml.v3 nodes at the peak).
	MaxYAMLNodes = 10_000_000
	// MaxJSONNodes caps the JSON fast path's nodes (1.3 GB of tree; a
	// cluster at MaxHosts is about 24 million).
	MaxJSONNodes = 64_000_000
)

// budget is what one input may build.
type budget struct {
	yamlNodes, jsonNodes, aliasNodes int
	limits                           Limits
}

func (l Limits) budget() budget {
	prop := int(min(l.maxInput()/bytesPerYAMLNode, 1<<40))
	return budget{
		yamlNodes:  min(max(prop, minNodes), MaxYAMLNodes),
		jsonNodes:  min(max(int(min(l.maxInput()/bytesPerJSONNode, 1<<40)), minNodes), MaxJSONNodes),
		aliasNodes: min(max(prop, minNodes), MaxAliasNodes),
		limits:     l,
	}
}

// why names where a budget comes from, for messages.
func (b budget) why(capped bool) string {
	if capped {
		return "lbctl's limit on nodes per input"
	}
	return fmt.Sprintf("lbctl's limit on nodes for %s %d bytes; %s", option.MaxInput, b.limits.maxInput(), b.limits.hint())
}

// tooManyNodes is the problem at line:col where an input passes max nodes.
func (b budget) tooManyNodes(file string, line, col, max, capAt int) *Problem {
	return &Problem{Pos: Pos{File: file, Line: line, Col: col}, Severity: SevError, Code: CodeSyntax,
		Msg: fmt.Sprintf("more than %d YAML/JSON nodes (%s)", max, b.why(max == capAt))}
}

// preScanYAML bounds the nodes yaml.v3 would build for data before it
// builds them (parse.CountYAMLNodes); past the budget, the word that
// passes it is reported.
func (b budget) preScanYAML(file string, data []byte) *Problem {
	if line, col, over := parse.CountYAMLNodes(data, b.yamlNodes); over {
		return b.tooManyNodes(file, line, col, b.yamlNodes, MaxYAMLNodes)
	}
	return nil
}
