package config

import (
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The loader's own document tree: one flat slice of small entries per
// file, kept alive by Sources for positions. yaml.v3's Node (~150 bytes
// plus a Content slice each) made a 100k-host cluster ~200 MB of tree;
// an entry is 16 bytes, plus 4 in its parent's child list (kids) unless
// its siblings are consecutive entries, and scalar values of JSON input
// stay substrings of the input.

// nodeKind is what a node is, as yaml.v3's Kind (documents are unwrapped).
type nodeKind uint8

const (
	noNode nodeKind = iota
	scalarNode
	mappingNode
	sequenceNode
	aliasNode
)

// Styles, the bits of yaml.v3's Style.
const (
	styleDoubleQuoted = uint8(yaml.DoubleQuotedStyle)
	styleSingleQuoted = uint8(yaml.SingleQuotedStyle)
	styleLiteral      = uint8(yaml.LiteralStyle)
	styleFolded       = uint8(yaml.FoldedStyle)
	styleFlow         = uint8(yaml.FlowStyle)
)

// Tags as yaml.v3's Node.ShortTag resolves them; tagCustom looks the tag
// up in tree.custom.
const (
	tagNone uint8 = iota
	tagStr
	tagInt
	tagFloat
	tagBool
	tagNull
	tagBinary
	tagTimestamp
	tagMap
	tagSeq
	tagMerge
	tagCustom
)

var tagNames = [...]string{"", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!timestamp", "!!map", "!!seq", "!!merge"}

func tagCode(short string) uint8 {
	for i, s := range tagNames {
		if s == short {
			return uint8(i)
		}
	}
	return tagCustom
}

// Entry flags.
const (
	flagStrs   = 1 << iota // a scalar's value is tree.strs[a], not src[a:a+b]
	flagAnchor             // the node carries an anchor
	flagWide               // line and column too large to pack: in tree.wide
	flagRun                // a container's children are entries a, a+1, …
)

// entry is one node. a and b: a scalar's value (offset and length in src,
// or an index in strs); a container's children (first index in kids, or
// the first child with flagRun, and count); an alias's target and its
// name's index in strs. at is where the node starts: its offset in src
// for JSON (tree.offsets), else its line and column packed (setPos).
type entry struct {
	a, b, at                uint32
	kind, tag, style, flags uint8
}

// tree holds the nodes of one input file.
type tree struct {
	file   string
	src    string
	nodes  []entry
	kids   []int32
	strs   []string
	custom map[int32]string   // tags other than the standard ones, by node
	wide   map[int32][2]int32 // line and column of nodes with flagWide
	// offsets: entries' at is an offset in src (JSON), placed on lines
	// by marks, made on first use (positions are asked for concurrently).
	offsets   bool
	marksOnce sync.Once
	marks     []lineMark
	maps      int      // mapping nodes: about the messages they decode to
	deep      bool     // JSON nested past MaxDepth (checkExpansion's work)
	id        int32    // index+1 in Sources.trees, once a node is recorded
	base      uint32   // then the id of its first node (Sources.record)
	dupAlts   []dupAlt // repeated keys whose values differ (dupconsequence.go)
}

// node is a handle on one entry; the zero node is "no node". skip, when
// not 0, hides the mapping pair whose key is child skip-1 (an Any's
// "@type" beside its payload's fields).
type node struct {
	t    *tree
	i    int32
	skip int32
}

func (n node) ok() bool { return n.t != nil }

func (n node) e() *entry { return &n.t.nodes[n.i] }

func (n node) kind() nodeKind {
	if n.t == nil {
		return noNode
	}
	return nodeKind(n.t.nodes[n.i].kind)
}

// shortTag is the tag yaml.v3's ShortTag gives the node.
func (n node) shortTag() string {
	e := n.e()
	if e.tag == tagCustom {
		return n.t.custom[n.i]
	}
	return tagNames[e.tag]
}

func (n node) style() uint8 { return n.e().style }

func (n node) anchored() bool { return n.e().flags&flagAnchor != 0 }

// value is a scalar's value, an alias's name (as yaml.v3's Value), "" for
// others.
func (n node) value() string {
	e := n.e()
	switch {
	case e.kind == uint8(aliasNode):
		return n.t.strs[e.b]
	case e.kind != uint8(scalarNode):
		return ""
	case e.flags&flagStrs != 0:
		return n.t.strs[e.a]
	}
	return n.t.src[e.a : e.a+e.b]
}

func (n node) line() int { l, _ := n.lineCol(); return l }
func (n node) col() int  { _, c := n.lineCol(); return c }

// lineCol is where the node starts, from 1.
func (n node) lineCol() (int, int) {
	e := n.e()
	switch {
	case n.t.offsets:
		return n.t.offsetLineCol(int(e.at))
	case e.flags&flagWide != 0:
		w := n.t.wide[n.i]
		return int(w[0]), int(w[1])
	}
	return int(e.at >> colBits), int(e.at & (1<<colBits - 1))
}

// colBits is the column's share of a packed line and column: columns
// past 4095 or lines past about a million go to tree.wide.
const colBits = 12

// setPos gives entry i (not an offset tree's) line and column.
func (t *tree) setPos(i int32, line, col int) {
	e := &t.nodes[i]
	if line >= 0 && line < 1<<(32-colBits) && col >= 0 && col < 1<<colBits {
		e.at = uint32(line)<<colBits | uint32(col)
		return
	}
	e.flags |= flagWide
	if t.wide == nil {
		t.wide = map[int32][2]int32{}
	}
	t.wide[i] = [2]int32{int32(line), int32(col)}
}

// lineMark is the line at the start of a block of src and the offset
// where that line starts.
type lineMark struct{ line, start int32 }

// markBlock is the bytes of src per lineMark: placing an offset scans
// at most one block.
const markBlock = 4096

// offsetLineCol places an offset of src: its line and byte column (the
// JSON fast path takes ASCII only, where bytes are yaml.v3's columns).
func (t *tree) offsetLineCol(off int) (int, int) {
	t.marksOnce.Do(t.markLines)
	k := off / markBlock
	m := t.marks[k]
	blk := t.src[k*markBlock : off]
	n := strings.Count(blk, "\n")
	start := int(m.start)
	if n > 0 {
		start = k*markBlock + strings.LastIndexByte(blk, '\n') + 1
	}
	line := int(m.line) + n
	return line, off - start + 1
}

func (t *tree) markLines() {
	t.marks = make([]lineMark, len(t.src)/markBlock+1)
	line, start, from := 1, 0, 0
	for k := range t.marks {
		end := k * markBlock
		for {
			i := strings.IndexByte(t.src[from:end], '\n')
			if i < 0 {
				break
			}
			line, start, from = line+1, from+i+1, from+i+1
		}
		from = end
		t.marks[k] = lineMark{int32(line), int32(start)}
	}
}

// fit trims the entries and child lists to their length when the
// estimate left much unused (the tree lives as long as the Config); a
// little is not worth a copy.
func (t *tree) fit() {
	if cap(t.nodes)-len(t.nodes) > len(t.nodes)/8 {
		t.nodes = append(make([]entry, 0, len(t.nodes)), t.nodes...)
	}
	if cap(t.kids)-len(t.kids) > len(t.kids)/8 {
		t.kids = append(make([]int32, 0, len(t.kids)), t.kids...)
	}
}

// len is the number of children (keys and values of a mapping).
func (n node) len() int {
	if n.t == nil {
		return 0
	}
	e := n.e()
	if e.kind != uint8(mappingNode) && e.kind != uint8(sequenceNode) {
		return 0
	}
	if n.skip != 0 {
		return int(e.b) - 2
	}
	return int(e.b)
}

// child is child i (0 ≤ i < len).
func (n node) child(i int) node {
	if n.skip != 0 && i >= int(n.skip)-1 {
		i += 2
	}
	e := &n.t.nodes[n.i]
	if e.flags&flagRun != 0 {
		return node{t: n.t, i: int32(e.a) + int32(i)}
	}
	return node{t: n.t, i: n.t.kids[int(e.a)+i]}
}

// setKids gives container i its children c. Entries are added depth
// first, so children are consecutive entries when no child but the last
// has children of its own (a socket_address, an address): those need no
// place in kids.
func (t *tree) setKids(i int32, c []int32) {
	e := &t.nodes[i]
	e.b = uint32(len(c))
	run := true
	for j := 1; j < len(c) && run; j++ {
		run = c[j] == c[0]+int32(j)
	}
	if run {
		e.flags |= flagRun
		if len(c) > 0 {
			e.a = uint32(c[0])
		}
		return
	}
	e.a = uint32(len(t.kids))
	t.kids = append(t.kids, c...)
}

// target is the node an alias names.
func (n node) target() node {
	return node{t: n.t, i: int32(n.e().a)}
}

// without hides the pair whose key is k (a child of the mapping n).
func (n node) without(k node) node {
	for i := 0; i+1 < n.len(); i += 2 {
		if n.child(i) == k {
			return node{t: n.t, i: n.i, skip: int32(i) + 1}
		}
	}
	return n
}

// resolve follows an alias to the anchored node.
func resolve(n node) node {
	for i := 0; n.kind() == aliasNode && i < 1000; i++ {
		n = n.target()
	}
	return n
}

// mapGet returns the value and key nodes of key in a mapping, trying each
// name in turn (snake_case and camelCase spellings).
func mapGet(n node, names ...string) (val, key node) {
	n = resolve(n)
	if n.kind() != mappingNode {
		return node{}, node{}
	}
	for _, name := range names {
		for i := 0; i+1 < n.len(); i += 2 {
			if k := n.child(i); k.value() == name {
				return resolve(n.child(i + 1)), k
			}
		}
	}
	return node{}, node{}
}

// pos is where m is written, in n's file (m and n of one tree).
func (n node) pos(m node) Pos { return nodePos(n.t.file, m) }

func nodePos(file string, n node) Pos {
	if !n.ok() {
		return Pos{File: file}
	}
	line, col := n.lineCol()
	return Pos{File: file, Line: line, Col: col}
}

// add appends an entry and returns its index.
func (t *tree) add(e entry) int32 {
	t.nodes = append(t.nodes, e)
	return int32(len(t.nodes) - 1)
}

// fromYAML converts a yaml.v3 document into t and returns its root, so that
// the yaml.Node tree can go.
func (t *tree) fromYAML(root *yaml.Node) node {
	var anchors map[*yaml.Node]int32 // made at the first anchor
	var stack []int32                // children of the open containers
	var conv func(n *yaml.Node) int32
	conv = func(n *yaml.Node) int32 {
		e := entry{style: uint8(n.Style)}
		if n.Anchor != "" {
			e.flags |= flagAnchor
		}
		short := n.ShortTag()
		e.tag = tagCode(short)
		switch n.Kind {
		case yaml.ScalarNode:
			e.kind = uint8(scalarNode)
			e.flags |= flagStrs
			e.a = uint32(len(t.strs))
			t.strs = append(t.strs, n.Value)
		case yaml.MappingNode:
			e.kind = uint8(mappingNode)
			t.maps++
		case yaml.SequenceNode:
			e.kind = uint8(sequenceNode)
		case yaml.AliasNode:
			e.kind = uint8(aliasNode)
			e.b = t.str(n.Value)
		}
		i := t.add(e)
		t.setPos(i, n.Line, n.Column)
		if e.tag == tagCustom {
			if t.custom == nil {
				t.custom = map[int32]string{}
			}
			t.custom[i] = short
		}
		if n.Anchor != "" {
			if anchors == nil {
				anchors = map[*yaml.Node]int32{}
			}
			anchors[n] = i
		}
		switch n.Kind {
		case yaml.AliasNode:
			target, ok := anchors[n.Alias]
			if !ok { // yaml.v3 always sets Alias to an earlier anchor
				target = t.add(entry{kind: uint8(scalarNode), tag: tagNull, flags: flagStrs, a: t.str("")})
				t.setPos(target, n.Line, n.Column)
			}
			t.nodes[i].a = uint32(target)
		case yaml.MappingNode, yaml.SequenceNode:
			base := len(stack)
			for _, c := range n.Content {
				c := conv(c)
				stack = append(stack, c)
			}
			t.setKids(i, stack[base:])
			stack = stack[:base]
		}
		return i
	}
	return node{t: t, i: conv(root)}
}

func (t *tree) str(s string) uint32 {
	t.strs = append(t.strs, s)
	return uint32(len(t.strs) - 1)
}
