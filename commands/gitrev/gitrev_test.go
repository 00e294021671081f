package gitrev

import (
	"errors"
	"testing"
)

func TestParseDiff(t *testing.T) {
	d := "diff --git a/x.yaml b/x.yaml\n--- a/x.yaml\n+++ b/x.yaml\n@@ -3,0 +4,2 @@\n+a\n+b\n@@ -9 +11 @@\n-c\n+d\n@@ -20,2 +21,0 @@\n-e\n-f\n" +
		"diff --git a/y.yaml b/y.yaml\n--- a/y.yaml\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n"
	c := ParseDiff(d, "/r")
	got := c["/r/x.yaml"]
	if len(got) != 2 || got[0] != (LineRange{4, 5}) || got[1] != (LineRange{11, 11}) || len(c) != 1 {
		t.Errorf("ParseDiff: %v", c)
	}
}

func TestCheck(t *testing.T) {
	for _, ok := range []string{"HEAD", "HEAD~1", "HEAD^", "main", "v1.2.3", "origin/main", "HEAD@{1}", "abc123", "feature/x-y_z"} {
		if err := Check(ok); err != nil {
			t.Errorf("Check(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-", "--output=FILE", "-oFILE", "--output", "HEAD;touch x", "$(id)", "`id`", "a|b", "a&b",
		"a>b", "a<b", "HEAD x", "HEAD\tx", "HEAD\nx", "HEAD\x1b[31m", "HEAD\x00", "a'b", `a"b`, `a\b`, "HEAD\u202e"} {
		if err := Check(bad); !errors.Is(err, ErrNotRevision) {
			t.Errorf("Check(%q) = %v, want ErrNotRevision", bad, err)
		}
	}
}
