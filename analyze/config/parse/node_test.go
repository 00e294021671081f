package parse

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

// An offset is placed on the line and column counting gives, across
// marks' blocks: short lines, and a line longer than several blocks.
func TestOffsetLineCol(t *testing.T) {
	src := "{\n" + strings.Repeat("  \"k\": 1,\n", 1000) + " \"long\": \"" + strings.Repeat("x", 3*markBlock+17) + "\"\n}\n"
	tr := &Tree{src: src, offsets: true}
	line, col := 1, 1
	for off := 0; off < len(src); off++ {
		if l, c := tr.OffsetLineCol(off); l != line || c != col {
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
	tr := &Tree{}
	for _, p := range [][2]int{{1, 1}, {0, 0}, {3, 4095}, {3, 4096}, {1<<20 - 1, 7}, {1 << 20, 7}, {5_000_000, 100_000}} {
		i := tr.add(entry{kind: uint8(ScalarNode)})
		tr.SetPos(i, p[0], p[1])
		if l, c := At(tr, i).LineCol(); l != p[0] || c != p[1] {
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
	fast, ok, _ := ParseJSON(src, 1000, 1000)
	if !ok {
		t.Fatal("fast path refused")
	}
	tr := &Tree{}
	for name, root := range map[string]Node{"fromYAML": tr.FromYAML(doc.Content[0]), "fast": fast} {
		var walk func(y *yaml.Node, n Node)
		walk = func(y *yaml.Node, n Node) {
			if n.Value() != y.Value || n.Line() != y.Line || n.Col() != y.Column || n.Len() != len(y.Content) {
				t.Fatalf("%s: node %q %d:%d (%d children), yaml.v3 %q %d:%d (%d)", name, n.Value(), n.Line(), n.Col(), n.Len(), y.Value, y.Line, y.Column, len(y.Content))
			}
			for i, c := range y.Content {
				walk(c, n.Child(i))
			}
		}
		walk(doc.Content[0], root)
	}
	if len(tr.kids) == 0 || len(tr.kids) >= len(tr.nodes)-1 {
		t.Errorf("%d of %d children listed in kids: want some runs and some lists", len(tr.kids), len(tr.nodes)-1)
	}
}

// Swapping a mapping's children and restoring them, again and again,
// leaves the tree its size (restore drops the lists set since its save).
func TestSaveRestoreKeepsSize(t *testing.T) {
	root, ok, _ := ParseJSON(`{"a": 1, "b": 2, "c": 3}`, 1000, 1000)
	if !ok {
		t.Fatal("fast path refused")
	}
	tr, at := root.Place()
	before := len(tr.kids)
	for range 100 {
		restore := tr.Save(at)
		_, a := root.Child(0).Place()
		_, one := root.Child(1).Place()
		_, c := root.Child(4).Place()
		_, three := root.Child(5).Place()
		tr.SetChildren(at, []int32{c, three, a, one})
		if root.Len() != 4 || root.Child(0).Value() != "c" {
			t.Fatalf("swapped: %d children, first %q", root.Len(), root.Child(0).Value())
		}
		restore()
	}
	if len(tr.kids) != before || root.Len() != 6 || root.Child(2).Value() != "b" {
		t.Errorf("after 100 swaps: kids %d (was %d), %d children, third %q", len(tr.kids), before, root.Len(), root.Child(2).Value())
	}
}
