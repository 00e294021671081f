package config

import (
	"strings"
	"testing"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

func TestEntrySize(t *testing.T) {
	// The point of the tree: a node costs its entry plus its place in its
	// parent's child list.
	if got := unsafe.Sizeof(entry{}) + unsafe.Sizeof(int32(0)); got > 20 {
		t.Errorf("a node costs %d bytes, want at most 20", got)
	}
}

func TestTreeFromYAML(t *testing.T) {
	src := `a: &x {k: v}
b: *x
c: !custom 5
d: !!str 5
e: [1, 2.5, true, null, ~, "q", 'q', 2001-12-14, !!binary aGk=]
<<: {m: 1}
f: |
  lit
`
	docs, probs := parseDocuments("t.yaml", []byte(src))
	if len(probs) != 0 || len(docs) != 1 {
		t.Fatalf("parse: %v %d", probs, len(docs))
	}
	root := docs[0]
	a, _ := mapGet(root, "a")
	b, bk := mapGet(root, "b")
	if !a.anchored() || a != b || bk.line() != 2 || bk.col() != 1 {
		t.Errorf("alias b does not resolve to anchor a: %s %s", describe(a), describe(b))
	}
	if raw := root.child(3); raw.kind() != aliasNode || raw.value() != "x" || raw.target() != a {
		t.Errorf("b's alias node: %s", describe(raw))
	}
	if v, _ := mapGet(b, "k"); v.value() != "v" || v.line() != 1 || v.col() != 11 {
		t.Errorf("a.k = %s", describe(v))
	}
	if c, _ := mapGet(root, "c"); c.shortTag() != "!custom" || c.value() != "5" {
		t.Errorf("c = %s", describe(c))
	}
	if d, _ := mapGet(root, "d"); d.shortTag() != "!!str" {
		t.Errorf("d = %s", describe(d))
	}
	e, _ := mapGet(root, "e")
	want := []string{"!!int", "!!float", "!!bool", "!!null", "!!null", "!!str", "!!str", "!!timestamp", "!!binary"}
	if e.len() != len(want) {
		t.Fatalf("e has %d items", e.len())
	}
	for i, w := range want {
		if got := e.child(i).shortTag(); got != w {
			t.Errorf("e[%d] (%q): tag %s, want %s", i, e.child(i).value(), got, w)
		}
	}
	if e.child(5).style() != styleDoubleQuoted || e.child(6).style() != styleSingleQuoted || e.style() != styleFlow {
		t.Errorf("styles: %d %d %d", e.child(5).style(), e.child(6).style(), e.style())
	}
	if _, mk := mapGet(root, "<<"); mk.shortTag() != "!!merge" {
		t.Errorf("merge key tag %q", mk.shortTag())
	}
	if f, _ := mapGet(root, "f"); f.value() != "lit\n" || f.style() != styleLiteral {
		t.Errorf("f = %s", describe(f))
	}
	// without hides one pair and keeps the others in order.
	_, ck := mapGet(root, "c")
	w := root.without(ck)
	if w.len() != root.len()-2 || w.child(4).value() != "d" || w.child(2).value() != "b" || w.line() != root.line() {
		t.Errorf("without c: %d children, [2]=%q [4]=%q", w.len(), w.child(2).value(), w.child(4).value())
	}
	if v, _ := mapGet(w, "c"); v.ok() {
		t.Error("without c still finds c")
	}
}

// An offset is placed on the line and column counting gives, across
// marks' blocks: short lines, and a line longer than several blocks.
func TestOffsetLineCol(t *testing.T) {
	src := "{\n" + strings.Repeat("  \"k\": 1,\n", 1000) + " \"long\": \"" + strings.Repeat("x", 3*markBlock+17) + "\"\n}\n"
	tr := &tree{src: src, offsets: true}
	line, col := 1, 1
	for off := 0; off < len(src); off++ {
		if l, c := tr.offsetLineCol(off); l != line || c != col {
			t.Fatalf("offset %d at %d:%d, want %d:%d", off, l, c, line, col)
		}
		if src[off] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
}

// Lines and columns too large to pack keep their values.
func TestWidePos(t *testing.T) {
	tr := &tree{}
	for _, p := range [][2]int{{1, 1}, {0, 0}, {3, 4095}, {3, 4096}, {1<<20 - 1, 7}, {1 << 20, 7}, {5_000_000, 100_000}} {
		i := tr.add(entry{kind: uint8(scalarNode)})
		tr.setPos(i, p[0], p[1])
		if l, c := (node{t: tr, i: i}).lineCol(); l != p[0] || c != p[1] {
			t.Errorf("%v read back as %d:%d", p, l, c)
		}
	}
}

// Children read the same whether they are a run of entries or listed in
// kids: every node of a document matches yaml.v3's, child by child, for
// the tree converted from yaml.v3 and for the JSON fast path's.
func TestChildrenRunsAndLists(t *testing.T) {
	src := `{"a": {"b": {"c": 1, "d": [2, 3]}, "e": [], "f": {}}, "g": [{"h": 4}, {"i": {"j": 5}}, 6], "k": {"l": {"m": {}}}}`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	fast, ok := parseJSONNodes(src)
	if !ok {
		t.Fatal("fast path refused")
	}
	tr := &tree{}
	for name, root := range map[string]node{"fromYAML": tr.fromYAML(doc.Content[0]), "fast": fast} {
		var walk func(y *yaml.Node, n node)
		walk = func(y *yaml.Node, n node) {
			if n.value() != y.Value || n.line() != y.Line || n.col() != y.Column || n.len() != len(y.Content) {
				t.Fatalf("%s: node %q %d:%d (%d children), yaml.v3 %q %d:%d (%d)", name, n.value(), n.line(), n.col(), n.len(), y.Value, y.Line, y.Column, len(y.Content))
			}
			for i, c := range y.Content {
				walk(c, n.child(i))
			}
		}
		walk(doc.Content[0], root)
	}
	if len(tr.kids) == 0 || len(tr.kids) >= len(tr.nodes)-1 {
		t.Errorf("%d of %d children listed in kids: want some runs and some lists", len(tr.kids), len(tr.nodes)-1)
	}
}
