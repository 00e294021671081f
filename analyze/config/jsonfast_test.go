package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// yamlNodes is what yaml.v3 alone makes of data (the slow path), converted
// to the loader's tree.
func yamlNodes(t *testing.T, data []byte) (node, bool) {
	t.Helper()
	var n yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&n); err != nil || n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return node{}, false
	}
	return (&tree{}).FromYAML(n.Content[0]), true
}

// describe is one node without its children, for messages.
func describe(n node) string {
	return fmt.Sprintf("{kind %d tag %q style %d value %q at %d:%d, %d children, anchored %v}",
		n.Kind(), n.ShortTag(), n.Style(), n.Value(), n.Line(), n.Col(), n.Len(), n.Anchored())
}

// sameNodes compares two trees node by node, naming the first difference.
func sameNodes(a, b node, path string) string {
	if describe(a) != describe(b) || (a.Kind() == aliasNode) && describe(a.Target()) != describe(b.Target()) {
		return fmt.Sprintf("%s: fast %s, yaml.v3 %s", path, describe(a), describe(b))
	}
	for i := range a.Len() {
		if d := sameNodes(a.Child(i), b.Child(i), fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkFast asserts that the fast path, when it takes data, builds exactly
// the tree converted from yaml.v3's; it reports whether it took it.
func checkFast(t *testing.T, name string, data []byte) bool {
	t.Helper()
	fast, ok := parseJSONNodes(string(data))
	if !ok {
		return false
	}
	slow, ok := yamlNodes(t, data)
	if !ok {
		t.Errorf("%s: the fast path read what yaml.v3 rejects", name)
		return true
	}
	if d := sameNodes(fast, slow, ""); d != "" {
		t.Errorf("%s: %s", name, d)
	}
	if n, bound := treeOf(fast).Size(), parse.JSONNodeBound(string(data)); n > bound {
		t.Errorf("%s: %d nodes, more than the bound %d", name, n, bound)
	}
	return true
}

func TestJSONFastPathMatchesYAML(t *testing.T) {
	cases := []struct {
		in   string
		fast bool
	}{
		{`{}`, true},
		{`[]`, true},
		{"  \n {\"a\": 1, \"b\" : [1, -0, 2.5, -1e3, 1E+2, 0.0, 18446744073709551615, 18446744073709551616, -9223372036854775809, 1e400],\n \"c\":{\"d\":null,\"e\":true,\"f\":false}}\n\n", true},
		{`{"s":"a\"b\\cd\b\f\n\r\t\u00e9\u003c\u0026 x","k":""}`, true},
		{`{"s":"\/"}`, false}, // yaml.v3: unknown escape character
		{`{"deep":[[[[{"x":[{}]}]]]]}`, true},
		{`{"a":1,"a":2}`, true}, // duplicates are checkDuplicateKeys' job
		{`{"k":"` + strings.Repeat("v", 5000) + `"}`, true},
		// Left to yaml.v3:
		{`{"a":1,}`, false},
		{"{\"a\":\t1}", false},
		{"{\"a\":1}\r\n", false},
		{`{"a":"\ud83d\ude00"}`, false},
		{`{"é":1}`, false},
		{"{\"a\"\n:1}", false},
		{`{"` + strings.Repeat("k", 2000) + `":1}`, false},
		{`{"a":01}`, false},
		{`{"a":1} {"b":2}`, false},
		{"{\"a\":1}\n---\n{}", false},
		{`{"a":tru}`, false},
		{`{"a":1e}`, false},
		{`# c` + "\n{}", false},
		{`key: value`, false},
		{strings.Repeat("[", 1200) + strings.Repeat("]", 1200), false},
	}
	for _, c := range cases {
		if got := checkFast(t, c.in, []byte(c.in)); got != c.fast {
			t.Errorf("%.60q: fast path taken %v, want %v", c.in, got, c.fast)
		}
	}
	// Every JSON fixture and corpus file.
	var files []string
	globs := []string{"../../fixtures/*/*.json", "../../fixtures/*/*/*.json", "../../fixtures/*.json", filepath.Join(corpusDir, "*", "*.json")}
	if d := os.Getenv("LBCTL_CORPUS"); d != "" { // a corpus elsewhere
		globs = append(globs, filepath.Join(d, "*", "*.json"))
	}
	for _, glob := range globs {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	taken := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkFast(t, f, data) {
			taken++
		}
	}
	t.Logf("fast path took %d of %d JSON files", taken, len(files))
	if len(files) > 0 && taken == 0 {
		t.Error("the fast path took no JSON file")
	}
}

// FuzzJSONFastPath: whatever the fast path accepts, yaml.v3 reads to the
// same tree.
func FuzzJSONFastPath(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,-3e2,"x\n\u0041",{"b":null}]}`, `[true,false,{}]`, `{"a" : {"b":[ ]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, "fuzz", data) })
}

// The nodes are sized from parse.JSONNodeBound, which must not count short
// (empty containers, nesting) and is exact without brackets or
// punctuation inside strings.
func TestJSONNodeBound(t *testing.T) {
	for _, c := range []struct {
		src   string
		exact bool
	}{
		{`{}`, false}, {`[]`, false}, {`[1]`, true}, {`{"a":1}`, true},
		{`{"a":{},"b":[],"c":[{}]}`, false},
		{`{"a":{"b":[1,2,{"c":null}]},"d":[[],[3]]}`, false},
		{`{"a":"x:y,z{[","b":[1,2,3]}`, false},
		{`{"a":{"b":{"c":1}},"d":[1,[2,3]]}`, true},
	} {
		root, ok := parseJSONNodes(c.src)
		if !ok {
			t.Fatalf("%s: fast path refused", c.src)
		}
		n, bound := treeOf(root).Size(), parse.JSONNodeBound(c.src)
		if n > bound || c.exact && n != bound {
			t.Errorf("%s: %d nodes, bound %d", c.src, n, bound)
		}
	}
}

// parseJSONNodes is parse.ParseJSON within the default limits.
func parseJSONNodes(src string) (root node, ok bool) {
	root, ok, _ = parseJSONLimited(src, MaxJSONNodes)
	return root, ok
}
