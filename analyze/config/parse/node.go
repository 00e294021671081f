package parse

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

// Kind is what a node is, as yaml.v3's Kind (documents are unwrapped).
type Kind uint8

const (
	NoNode Kind = iota
	ScalarNode
	MappingNode
	SequenceNode
	AliasNode
)

// Styles, the bits of yaml.v3's Style.
const (
	StyleDoubleQuoted = uint8(yaml.DoubleQuotedStyle)
	StyleSingleQuoted = uint8(yaml.SingleQuotedStyle)
	StyleLiteral      = uint8(yaml.LiteralStyle)
	StyleFolded       = uint8(yaml.FoldedStyle)
	StyleFlow         = uint8(yaml.FlowStyle)
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
// for JSON (tree.offsets), else its line and column packed (SetPos).
type entry struct {
	a, b, at                uint32
	kind, tag, style, flags uint8
}

// Tree holds the nodes of one input file.
type Tree struct {
	File   string
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
	Maps      int      // mapping nodes: about the messages they decode to
	Deep      bool     // JSON nested past the depth limit (the expansion check's work)
	ID        int32    // index+1 in the loader's list of trees, once a node is recorded
	Base      uint32   // then the id of its first node
	Repeats   []Repeat // repeated keys whose values differ (config's dupconsequence.go)
}

// Size is the number of nodes of t.
func (t *Tree) Size() int { return len(t.nodes) }

// Node is a handle on one entry; the zero node is "no node". skip, when
// not 0, hides the mapping pair whose key is child skip-1 (an Any's
// "@type" beside its payload's fields).
type Node struct {
	t    *Tree
	i    int32
	skip int32
}

// OK reports a node, not the zero Node.
func (n Node) OK() bool { return n.t != nil }

// At is node i of t (0 ≤ i < t.Size()).
func At(t *Tree, i int32) Node { return Node{t: t, i: i} }

// Place is where n is: its tree and its index there (nil for no node).
func (n Node) Place() (*Tree, int32) { return n.t, n.i }

func (n Node) e() *entry { return &n.t.nodes[n.i] }

func (n Node) Kind() Kind {
	if n.t == nil {
		return NoNode
	}
	return Kind(n.t.nodes[n.i].kind)
}

// ShortTag is the tag yaml.v3's ShortTag gives the node.
func (n Node) ShortTag() string {
	e := n.e()
	if e.tag == tagCustom {
		return n.t.custom[n.i]
	}
	return tagNames[e.tag]
}

// Style is the node's style bits (yaml.v3's Style).
func (n Node) Style() uint8 { return n.e().style }

// Anchored reports a node that carries an anchor.
func (n Node) Anchored() bool { return n.e().flags&flagAnchor != 0 }

// Value is a scalar's value, an alias's name (as yaml.v3's Value), "" for
// others.
func (n Node) Value() string {
	e := n.e()
	switch {
	case e.kind == uint8(AliasNode):
		return n.t.strs[e.b]
	case e.kind != uint8(ScalarNode):
		return ""
	case e.flags&flagStrs != 0:
		return n.t.strs[e.a]
	}
	return n.t.src[e.a : e.a+e.b]
}

// Line and Col are where the node starts, from 1.
func (n Node) Line() int { l, _ := n.LineCol(); return l }
func (n Node) Col() int  { _, c := n.LineCol(); return c }

// LineCol is where the node starts, from 1.
func (n Node) LineCol() (int, int) {
	e := n.e()
	switch {
	case n.t.offsets:
		return n.t.OffsetLineCol(int(e.at))
	case e.flags&flagWide != 0:
		w := n.t.wide[n.i]
		return int(w[0]), int(w[1])
	}
	return int(e.at >> colBits), int(e.at & (1<<colBits - 1))
}

// colBits is the column's share of a packed line and column: columns
// past 4095 or lines past about a million go to tree.wide.
const colBits = 12

// SetPos gives entry i (not an offset tree's) line and column.
func (t *Tree) SetPos(i int32, line, col int) {
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

// Reposition moves every node from where it starts to where f places it
// (an embedded document's nodes, placed in the file that holds it).
func (t *Tree) Reposition(f func(line, col int) (int, int)) {
	at := make([][2]int, len(t.nodes))
	for i := range t.nodes {
		at[i][0], at[i][1] = At(t, int32(i)).LineCol()
		at[i][0], at[i][1] = f(at[i][0], at[i][1])
	}
	t.offsets = false
	for i := range t.nodes {
		t.nodes[i].flags &^= flagWide
		t.SetPos(int32(i), at[i][0], at[i][1])
	}
}

// OffsetLineCol places byte offset off of src as a JSON tree's nodes are.
func OffsetLineCol(src string, off int) (int, int) {
	return (&Tree{src: src, offsets: true}).OffsetLineCol(off)
}

// lineMark is the line at the start of a block of src and the offset
// where that line starts.
type lineMark struct{ line, start int32 }

// markBlock is the bytes of src per lineMark: placing an offset scans
// at most one block.
const markBlock = 4096

// OffsetLineCol places an offset of src: its line and byte column (the
// JSON fast path takes ASCII only, where bytes are yaml.v3's columns).
func (t *Tree) OffsetLineCol(off int) (int, int) {
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

func (t *Tree) markLines() {
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

// Fit trims the entries and child lists to their length when the
// estimate left much unused (the tree lives as long as the Config); a
// little is not worth a copy.
func (t *Tree) Fit() {
	if cap(t.nodes)-len(t.nodes) > len(t.nodes)/8 {
		t.nodes = append(make([]entry, 0, len(t.nodes)), t.nodes...)
	}
	if cap(t.kids)-len(t.kids) > len(t.kids)/8 {
		t.kids = append(make([]int32, 0, len(t.kids)), t.kids...)
	}
}

// Len is the number of children (keys and values of a mapping).
func (n Node) Len() int {
	if n.t == nil {
		return 0
	}
	e := n.e()
	if e.kind != uint8(MappingNode) && e.kind != uint8(SequenceNode) {
		return 0
	}
	if n.skip != 0 {
		return int(e.b) - 2
	}
	return int(e.b)
}

// Child is child i (0 ≤ i < len).
func (n Node) Child(i int) Node {
	if n.skip != 0 && i >= int(n.skip)-1 {
		i += 2
	}
	e := &n.t.nodes[n.i]
	if e.flags&flagRun != 0 {
		return Node{t: n.t, i: int32(e.a) + int32(i)}
	}
	return Node{t: n.t, i: n.t.kids[int(e.a)+i]}
}

// setKids gives container i its children c. Entries are added depth
// first, so children are consecutive entries when no child but the last
// has children of its own (a socket_address, an address): those need no
// place in kids.
func (t *Tree) setKids(i int32, c []int32) {
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

// SetChildren replaces container i's children by c (a mapping's pairs
// thinned, say).
func (t *Tree) SetChildren(i int32, c []int32) {
	t.nodes[i].flags &^= flagRun // setKids sets it again only for a run
	t.setKids(i, c)
}

// Target is the node an alias names.
func (n Node) Target() Node {
	return Node{t: n.t, i: int32(n.e().a)}
}

// Without hides the pair whose key is k (a child of the mapping n).
func (n Node) Without(k Node) Node {
	for i := 0; i+1 < n.Len(); i += 2 {
		if n.Child(i) == k {
			return Node{t: n.t, i: n.i, skip: int32(i) + 1}
		}
	}
	return n
}

// Resolve follows an alias to the anchored node.
func Resolve(n Node) Node {
	for i := 0; n.Kind() == AliasNode && i < 1000; i++ {
		n = n.Target()
	}
	return n
}

// MapGet returns the value and key nodes of key in a mapping, trying each
// name in turn (snake_case and camelCase spellings).
func MapGet(n Node, names ...string) (val, key Node) {
	n = Resolve(n)
	if n.Kind() != MappingNode {
		return Node{}, Node{}
	}
	for _, name := range names {
		for i := 0; i+1 < n.Len(); i += 2 {
			if k := n.Child(i); k.Value() == name {
				return Resolve(n.Child(i + 1)), k
			}
		}
	}
	return Node{}, Node{}
}

// add appends an entry and returns its index.
func (t *Tree) add(e entry) int32 {
	t.nodes = append(t.nodes, e)
	return int32(len(t.nodes) - 1)
}

// FromYAML converts a yaml.v3 document into t and returns its root, so that
// the yaml.Node tree can go.
func (t *Tree) FromYAML(root *yaml.Node) Node {
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
			e.kind = uint8(ScalarNode)
			e.flags |= flagStrs
			e.a = uint32(len(t.strs))
			t.strs = append(t.strs, n.Value)
		case yaml.MappingNode:
			e.kind = uint8(MappingNode)
			t.Maps++
		case yaml.SequenceNode:
			e.kind = uint8(SequenceNode)
		case yaml.AliasNode:
			e.kind = uint8(AliasNode)
			e.b = t.str(n.Value)
		}
		i := t.add(e)
		t.SetPos(i, n.Line, n.Column)
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
				target = t.add(entry{kind: uint8(ScalarNode), tag: tagNull, flags: flagStrs, a: t.str("")})
				t.SetPos(target, n.Line, n.Column)
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
	return Node{t: t, i: conv(root)}
}

func (t *Tree) str(s string) uint32 {
	t.strs = append(t.strs, s)
	return uint32(len(t.strs) - 1)
}

// Repeat is a repeated mapping key whose values differ: Mapping holds the
// key's last pair, Key is the repeat a problem is reported at, First the
// first value (the loader decodes it again to find what it changes).
type Repeat struct{ Mapping, Key, First Node }

// Save keeps node i's entry; the returned function puts it back (a
// mapping's children changed for one decoding, then restored) and drops
// the children lists set since, so that repeated swaps do not grow t.
// Restores must run in the reverse order of their saves.
func (t *Tree) Save(i int32) (restore func()) {
	saved, kids := t.nodes[i], len(t.kids)
	return func() {
		t.nodes[i] = saved
		t.kids = t.kids[:min(kids, len(t.kids))]
	}
}
