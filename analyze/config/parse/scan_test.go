package parse

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestTrailingComma(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		closer    rune
		ok        bool
	}{
		{`[1, 2]`, 0, 0, 0, false},
		{`[1, 2,]`, 1, 6, ']', true},
		{"{\"a\": 1,\n  }", 1, 8, '}', true},
		{`{"a": "x,]"}`, 0, 0, 0, false},
		{`{"é": [1,]}`, 1, 9, ']', true},
	} {
		line, col, closer, ok := TrailingComma([]byte(c.src))
		if line != c.line || col != c.col || closer != c.closer || ok != c.ok {
			t.Errorf("%q: %d:%d %q %v, want %d:%d %q %v", c.src, line, col, closer, ok, c.line, c.col, c.closer, c.ok)
		}
	}
}

func TestCountYAMLNodes(t *testing.T) {
	src := []byte("a: 1 # two words\nb: [c, d]\n")
	// a, 1, b, the flow list, c, d: six.
	if _, _, over := CountYAMLNodes(src, 6); over {
		t.Error("6 nodes passed a budget of 6")
	}
	if line, col, over := CountYAMLNodes(src, 5); !over || line != 2 || col != 8 {
		t.Errorf("budget 5: %d:%d %v, want 2:8 true (the word d)", line, col, over)
	}
}

func TestSyntaxPos(t *testing.T) {
	data := []byte("a: 1\nb: c: d\n")
	var n yaml.Node
	err := yaml.Unmarshal(data, &n)
	if err == nil {
		t.Fatal("yaml.v3 accepted a nested mapping value")
	}
	line, col, msg := SyntaxPos(data, err)
	if line != 2 || col != 5 || msg != "mapping values are not allowed in this context" {
		t.Errorf("%d:%d %q", line, col, msg)
	}
}
