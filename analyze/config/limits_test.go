package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/option"
)

// laughs is a nested-alias ("billion laughs") cluster under 1 KB: ten
// levels of ten aliases each expand to 10^10 nodes in its metadata.
func laughs() string {
	var b strings.Builder
	b.WriteString("name: c\ntype: STATIC\nmetadata:\n  filter_metadata:\n    x:\n      a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n")
	for i := 1; i < 10; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", i-1), 10), ",")
		fmt.Fprintf(&b, "      a%d: &a%d [%s]\n", i, i, refs)
	}
	return b.String()
}

// mustFail loads data and wants one error at want (file:line:col) whose
// message contains msg, within a second.
func mustFail(t *testing.T, data, want, msg string) {
	t.Helper()
	start := time.Now()
	cfg, err := LoadBytes("in.yaml", []byte(data), "")
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	if err == nil {
		t.Fatalf("loaded without error (%d clusters)", len(cfg.Clusters))
	}
	errs := cfg.Problems.Errors()
	if len(errs) == 0 || errs[0].Pos.String() != want || !strings.Contains(errs[0].Msg, msg) {
		t.Fatalf("got %v, want %s: …%s…", err, want, msg)
	}
}

func TestAliasBombRefusedAtTheAlias(t *testing.T) {
	data := laughs()
	if len(data) >= 1024 {
		t.Fatalf("bomb is %d bytes, want < 1 KB", len(data))
	}
	// a0 is 11 nodes, a_i 1+10*size(a_i-1): aliases in a1..a4 add
	// 110+1,110+11,110+111,110 = 123,440; each *a4 in a5 adds 111,111, so
	// the eighth (column 16+4*7) passes 10^6.
	mustFail(t, data, "in.yaml:11:44", "limit on alias expansion")
}

func TestAliasesWithinBudgetLoad(t *testing.T) {
	data := "name: c\nconnect_timeout: &t 1s\nmetadata: {filter_metadata: {x: {a: &a [1, 2], b: *a}}}\ncommon_lb_config: {update_merge_window: *t}\n"
	if _, err := LoadBytes("in.yaml", []byte(data), ""); err != nil {
		t.Fatal(err)
	}
}

func TestNestingDepthRefused(t *testing.T) {
	data := "name: c\nmetadata: {filter_metadata: {x: {a: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "}}}\n"
	// Depth 0 is the document's mapping, {a: is depth 3, so the k-th "["
	// (column 36+k) is depth 3+k: the 254th is the first past 256.
	mustFail(t, data, "in.yaml:2:290", "limit on nesting depth")
}

// The JSON fast path takes nesting up to 1000 levels and checks the limit
// itself: the same error at the same place as yaml.v3's path.
func TestJSONNestingDepthRefused(t *testing.T) {
	prefix := `{"name":"c","metadata":{"filter_metadata":{"x":{"a":`
	deep := func(n int) string {
		return prefix + strings.Repeat("[", n) + strings.Repeat("]", n) + "}}}}\n"
	}
	if _, ok := parseJSONNodes(deep(300)); !ok {
		t.Fatal("the fast path does not take the input")
	}
	// As in YAML, the k-th "[" is depth 3+k: the 254th is the first past 256.
	mustFail(t, deep(300), "in.yaml:1:"+strconv.Itoa(len(prefix)+254), "limit on nesting depth")
	if cfg, err := LoadBytes("in.json", []byte(deep(253)), ""); err != nil || len(cfg.Clusters) != 1 {
		t.Fatalf("253 levels: %v", err)
	}
}

// An alias inside its own anchor expanded for ever (a stack overflow).
func TestSelfAliasRefused(t *testing.T) {
	mustFail(t, "name: c\nmetadata: {filter_metadata: {x: &x {a: [*x]}}}\n", "in.yaml:2:41", "expand without end")
	mustFail(t, "name: c\nmetadata: &m {filter_metadata: {x: {<<: *m}}}\n", "in.yaml:2:41", "expand without end")
}

func TestDepthThroughAliasesRefused(t *testing.T) {
	deep := strings.Repeat("[", 200) + strings.Repeat("]", 200)
	data := "name: c\nmetadata: {filter_metadata: {x: {a: &d " + deep + ", b: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*d]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}}\n"
	cfg, err := LoadBytes("in.yaml", []byte(data), "")
	if err == nil || !strings.Contains(err.Error(), "once aliases are expanded") {
		t.Fatalf("got %v (%d clusters)", err, len(cfg.Clusters))
	}
}

func TestNULAndInvalidUTF8AtTheirPosition(t *testing.T) {
	mustFail(t, "name: c\ntype: STA\x00TIC\n", "in.yaml:2:10", "NUL byte")
	mustFail(t, "name: c\n# é\nlb_policy: \xff\n", "in.yaml:3:12", "invalid UTF-8")
}

func TestSyntaxErrorColumn(t *testing.T) {
	mustFail(t, "name: c\ntype: STATIC\nlb_policy: a: b\n", "in.yaml:3:13", "mapping values are not allowed")
	mustFail(t, "name: c\n\tlb_policy: RANDOM\n", "in.yaml:2:1", "tab character")
	mustFail(t, "name: c\ntype: @x\n", "in.yaml:2:7", "cannot start any token")
}

func TestSpecialFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	zero := filepath.Join(dir, "sub", "zero.yaml")
	os.MkdirAll(filepath.Dir(zero), 0o700)
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip("no symlink:", err)
	}
	for _, in := range []string{fifo, zero, filepath.Dir(zero), dir} {
		done := make(chan error, 1)
		go func() { _, err := Load([]Input{{Path: in}}, ""); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: got %v, want not a regular file", in, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5 s", in)
		}
	}
}

func TestMaxInputPerFileAndTotal(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte("name: a\n"), 0o600)
	os.WriteFile(b, []byte("name: b\n"), 0o600)
	if _, err := LoadLimited([]Input{{Path: a}, {Path: b}}, "", Limits{MaxInput: 16}); err != nil {
		t.Fatalf("16 bytes in all: %v", err)
	}
	_, err := LoadLimited([]Input{{Path: a}, {Path: b}}, "", Limits{MaxInput: 12})
	if err == nil || !strings.Contains(err.Error(), "b.yaml: inputs together larger than 12 bytes (raise "+option.MaxInput.String()+")") {
		t.Fatalf("total: %v", err)
	}
	_, err = LoadLimited([]Input{{Path: "-", Stdin: strings.NewReader("name: a\nname2: b\n")}}, "", Limits{MaxInput: 8})
	if err == nil || !strings.Contains(err.Error(), "<stdin>: larger than 8 bytes (raise "+option.MaxInput.String()+")") {
		t.Fatalf("stdin: %v", err)
	}
}
