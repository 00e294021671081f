package term

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Line and paragraph separators and zero-width characters are escaped in
// text; JSON without them passes byte for byte, and JSON holding them
// stays valid and decodes to the same value.
func TestGuardSeparatorsAndZeroWidth(t *testing.T) {
	for in, want := range map[string]string{
		"a\u2028b":       `a\u2028b`,
		"a\u2029b":       `a\u2029b`,
		"a\u200bb\u200c": `a\u200bb\u200c`,
		"\u200dx\u2060":  `\u200dx\u2060`,
		"\ufeffy":        `\ufeffy`,
		"é ok → ✓":       "é ok → ✓",
	} {
		var b bytes.Buffer
		if _, err := NewGuard(&b).Write([]byte(in)); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%q: got %q, want %q", in, b.String(), want)
		}
	}
	for _, v := range []string{"plain", "x\u200by\u2028z\ufeff"} {
		j, _ := json.Marshal(map[string]string{"name": v})
		var b bytes.Buffer
		NewGuard(&b).Write(j)
		var back map[string]string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["name"] != v {
			t.Errorf("%q: %s decodes to %q (%v)", v, b.String(), back["name"], err)
		}
		if v == "plain" && b.String() != string(j) {
			t.Errorf("JSON changed: %s -> %s", j, b.String())
		}
	}
}
