package term

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/option"
)

// TestGuard: the output guard escapes control characters, lets lbctl's own
// colour through only when colour is on, and redacts secrets in their
// plain and JSON spellings.
func TestGuard(t *testing.T) {
	for _, c := range []struct {
		in   string
		ansi bool
		want string
	}{
		{"ok\tcol\n", false, "ok\tcol\n"},
		{"\x1b[1;31mred\x1b[0m", false, `\x1b[1;31mred\x1b[0m`},
		{"\x1b[1;31mred\x1b[0m", true, "\x1b[1;31mred\x1b[0m"},
		{"\r\x1b[Kprogress", true, "\r\x1b[Kprogress"},
		{"\r\x1b[Kprogress", false, `\r\x1b[Kprogress`},
		{"\x1b]0;title\x07", true, `\x1b]0;title\a`},
		{"\x1b[2J", true, `\x1b[2J`},
		{"rtl\u202eevil \u009b", true, `rtl\u202eevil \u009b`},
		{"naïve → ok", false, "naïve → ok"},
		{`{"name": "a` + "\x7f" + `b"}`, false, `{"name": "a\u007fb"}`},
	} {
		var b bytes.Buffer
		g := &Guard{w: &b, ansi: c.ansi}
		g.Write([]byte(c.in))
		if b.String() != c.want {
			t.Errorf("guard(%q, ansi %v) = %q, want %q", c.in, c.ansi, b.String(), c.want)
		}
	}
	var b bytes.Buffer
	g := &Guard{w: &b}
	g.AddSecrets([]string{"s3cr\"et<value>"})
	json.NewEncoder(g).Encode(map[string]string{"v": "x s3cr\"et<value> y"})
	g.Write([]byte("plain s3cr\"et<value>\n"))
	if strings.Contains(b.String(), "s3cr") || strings.Count(b.String(), Redacted) != 2 {
		t.Errorf("not redacted:\n%s", b.String())
	}
}

// TestPlainOutputIsUnescaped: the guard's fast path is taken only for
// bytes Escape leaves alone, with and without ansi.
func TestPlainOutputIsUnescaped(t *testing.T) {
	check := func(p []byte) {
		if !Plain(p) {
			return
		}
		for _, ansi := range []bool{false, true} {
			if e := Escape(string(p), ansi); e != string(p) {
				t.Fatalf("Plain(%q) but Escape gives %q (ansi %v)", p, e, ansi)
			}
		}
	}
	for c := range 256 {
		check([]byte{byte(c)})
		check([]byte{'a', byte(c), 'b'})
	}
	check([]byte("{\n  \"name\": \"web\",\n\t\"share\": 0.5\n}\n"))
	for r := rune(0x80); r < 0x3000; r++ {
		check([]byte("a" + string(r) + "b"))
		check([]byte{'a', byte(r >> 8), byte(r)})
	}
	for _, s := range []string{"—", "→", "é", "中", "\xe2\x80", "\xc2"} {
		if !Plain([]byte(s)) {
			t.Errorf("%q takes the slow path", s)
		}
	}
	if Plain([]byte("a\x1b[31mb")) || Plain([]byte("a\u202eb")) || Plain([]byte("a\x7f")) || Plain([]byte("\r")) {
		t.Fatal("a control character passed the fast path")
	}
}

// scan says "no opener" only when heldFrom would hold nothing back, and
// never calls an Open plain, for every cut of text around references.
func TestScanOpener(t *testing.T) {
	ref := option.SetHealth.String()
	for _, s := range []string{"plain ascii\n", "a → b — c\n", "use " + ref + " x\n", "x" + option.Close, "\ue010 \xee\x81\x80", "\x1b[1mbold", "a\xee", "a\xee\x80"} {
		for i := 0; i <= len(s); i++ {
			p := []byte(s[:i])
			plain, opener := scan(p)
			if !opener && heldFrom(p) != len(p) {
				t.Errorf("%q: no opener, yet heldFrom holds from %d", p, heldFrom(p))
			}
			if plain && bytes.Contains(p, openBytes) {
				t.Errorf("%q: plain with an Open", p)
			}
		}
	}
}
