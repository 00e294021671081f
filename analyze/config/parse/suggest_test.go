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
