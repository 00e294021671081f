package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"lb_policy", "lb_polcy", 1}, {"abc", "abc", 0}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	fields := []string{"lb_policy", "load_assignment", "connect_timeout", "name", "ring_hash_lb_config"}
	for _, c := range []struct{ s, want string }{
		{"lb_polcy", "lb_policy"},  // one edit
		{"LB_POLICY", "lb_policy"}, // case is ignored
		{"nmae", "name"},           // two edits on a short name
		{"load_asignment", "load_assignment"},
		{"ring_hash", "ring_hash_lb_config"}, // a prefix of 3+ letters
		{"xyz", ""},                          // nothing near
		{"nm", ""},                           // as many edits as letters
		{"connect_timeout_ms_zzzz", ""},      // 8 edits is over a third of 23
	} {
		if got := Closest(c.s, fields); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	if got := Closest("expain", []string{"explain", "expect"}); got != "explain" {
		t.Errorf("Closest(expain) = %q", got)
	}
}

// TestClosestCommands is the CLI's case (moved from commands): command names.
func TestClosestCommands(t *testing.T) {
	cands := []string{"explain", "lint", "rules", "hash", "subset"}
	for in, want := range map[string]string{"explian": "explain", "hsah": "hash", "sub": "subset", "xyz": "", "frobnicate": "", "l": ""} {
		if got := Closest(in, cands); got != want {
			t.Errorf("Closest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadFileLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.yaml")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(p, 10); err != nil || string(data) != "0123456789" {
		t.Errorf("at the limit: %q, %v", data, err)
	}
	if _, err := ReadFile(p, 9); err == nil || err.Error() != "larger than 9 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "a character device") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// closestRef is Closest as it was before its rows were cut off: every
// distance in full.
func closestRef(s string, candidates []string) string {
	ls := strings.ToLower(s)
	best, bestD := "", 1<<30
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := EditDistance(ls, lc)
		if len(ls) >= 3 && strings.HasPrefix(lc, ls) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len(s)/3) || bestD >= len(s) {
		return ""
	}
	return best
}

// The bounded search answers as the full one on keys near and far.
func TestClosestMatchesFullSearch(t *testing.T) {
	cands := []string{"lb_policy", "load_assignment", "connect_timeout", "name", "ring_hash_lb_config", "lb", "Name", "common_lb_config", "x"}
	rnd := uint32(7)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>8) % n }
	for i := 0; i < 20000; i++ {
		c := cands[next(len(cands))]
		b := []byte(c)
		for e := next(8); e > 0; e-- { // a few random edits
			switch p := next(len(b) + 1); next(3) {
			case 0:
				b = append(b[:p], append([]byte{"abcn_LP"[next(7)]}, b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			default:
				if p < len(b) {
					b[p] = "abcn_LP"[next(7)]
				}
			}
		}
		if got, want := Closest(string(b), cands), closestRef(string(b), cands); got != want {
			t.Fatalf("Closest(%q) = %q, the full search %q", b, got, want)
		}
	}
}
