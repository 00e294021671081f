package config

import "github.com/lbctl/lbctl/analyze/config/parse"

// The document tree is parse's; the walk and the decoder name it often
// enough that short local names keep them readable.
type (
	node     = parse.Node
	tree     = parse.Tree
	nodeKind = parse.Kind
)

const (
	scalarNode   = parse.ScalarNode
	mappingNode  = parse.MappingNode
	sequenceNode = parse.SequenceNode
	aliasNode    = parse.AliasNode
)

// parseJSONLimited is parse.ParseJSON building at most maxNodes nodes,
// nested at most MaxDepth deep.
func parseJSONLimited(src string, maxNodes int) (root node, ok bool, over int) {
	return parse.ParseJSON(src, maxNodes, MaxDepth)
}
