package config

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

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
	a, _ := parse.MapGet(root, "a")
	b, bk := parse.MapGet(root, "b")
	if !a.Anchored() || a != b || bk.Line() != 2 || bk.Col() != 1 {
		t.Errorf("alias b does not resolve to anchor a: %s %s", describe(a), describe(b))
	}
	if raw := root.Child(3); raw.Kind() != aliasNode || raw.Value() != "x" || raw.Target() != a {
		t.Errorf("b's alias node: %s", describe(raw))
	}
	if v, _ := parse.MapGet(b, "k"); v.Value() != "v" || v.Line() != 1 || v.Col() != 11 {
		t.Errorf("a.k = %s", describe(v))
	}
	if c, _ := parse.MapGet(root, "c"); c.ShortTag() != "!custom" || c.Value() != "5" {
		t.Errorf("c = %s", describe(c))
	}
	if d, _ := parse.MapGet(root, "d"); d.ShortTag() != "!!str" {
		t.Errorf("d = %s", describe(d))
	}
	e, _ := parse.MapGet(root, "e")
	want := []string{"!!int", "!!float", "!!bool", "!!null", "!!null", "!!str", "!!str", "!!timestamp", "!!binary"}
	if e.Len() != len(want) {
		t.Fatalf("e has %d items", e.Len())
	}
	for i, w := range want {
		if got := e.Child(i).ShortTag(); got != w {
			t.Errorf("e[%d] (%q): tag %s, want %s", i, e.Child(i).Value(), got, w)
		}
	}
	if e.Child(5).Style() != parse.StyleDoubleQuoted || e.Child(6).Style() != parse.StyleSingleQuoted || e.Style() != parse.StyleFlow {
		t.Errorf("styles: %d %d %d", e.Child(5).Style(), e.Child(6).Style(), e.Style())
	}
	if _, mk := parse.MapGet(root, "<<"); mk.ShortTag() != "!!merge" {
		t.Errorf("merge key tag %q", mk.ShortTag())
	}
	if f, _ := parse.MapGet(root, "f"); f.Value() != "lit\n" || f.Style() != parse.StyleLiteral {
		t.Errorf("f = %s", describe(f))
	}
	// without hides one pair and keeps the others in order.
	_, ck := parse.MapGet(root, "c")
	w := root.Without(ck)
	if w.Len() != root.Len()-2 || w.Child(4).Value() != "d" || w.Child(2).Value() != "b" || w.Line() != root.Line() {
		t.Errorf("without c: %d children, [2]=%q [4]=%q", w.Len(), w.Child(2).Value(), w.Child(4).Value())
	}
	if v, _ := parse.MapGet(w, "c"); v.OK() {
		t.Error("without c still finds c")
	}
}
