package commands

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// The manual page renders without a groff warning and documents every
// visible command and flag of the real tree.
func TestManRenders(t *testing.T) {
	code, page, errs := termRun(t, nil, "man")
	if code != 0 {
		t.Fatalf("lbctl man: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(page, ".TH LBCTL 1 ") {
		t.Fatalf("not a man page: %.80q", page)
	}
	root := New(nil, nil, nil)
	for _, c := range root.Commands {
		if c.Hidden {
			if strings.Contains(page, ".SS lbctl "+c.Name) {
				t.Errorf("hidden command %s documented", c.Name)
			}
			continue
		}
		if !strings.Contains(page, ".SS lbctl "+roff(c.Name)) {
			t.Errorf("command %s missing", c.Name)
		}
		for _, f := range c.Flags {
			if !strings.Contains(page, `\fB\-\-`+roff(f.Names()[0])+`\fR`) {
				t.Errorf("flag --%s of %s missing", f.Names()[0], c.Name)
			}
		}
	}
	for _, hidden := range []string{"__complete", "generate-shell-completion"} {
		if strings.Contains(page, hidden) || strings.Contains(page, roff(hidden)) {
			t.Errorf("hidden %s documented", hidden)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff not installed: page not rendered")
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww")
	cmd.Stdin = strings.NewReader(page)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("groff: %v: %s", err, stderr.String())
	}
	text := stripOverstrike(out.String())
	for _, want := range []string{"NAME", "SYNOPSIS", "GLOBAL OPTIONS", "lbctl explain [FILE ...]", "EXIT STATUS",
		"lbctl explain fixtures/aggregate.yaml --set-health primary/0=50", "NO_COLOR"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
}

// stripOverstrike removes groff's bold/underline overstriking (X\bX).
func stripOverstrike(s string) string {
	var b strings.Builder
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		if i+1 < len(r) && r[i+1] == '\b' {
			i++
			continue
		}
		b.WriteRune(r[i])
	}
	return b.String()
}

// roff is a name as the page spells it: each '-' escaped.
func roff(name string) string { return strings.ReplaceAll(name, "-", `\-`) }
