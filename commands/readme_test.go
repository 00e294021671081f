package commands

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// readmeExample is one "$ lbctl ..." line of a console block in the
// README and the output printed under it.
type readmeExample struct {
	line int
	cmd  string
	want string
}

// matchElided reports whether got is want, where a line "…" in want
// stands for any run of lines.
func matchElided(got, want string) bool {
	parts := strings.Split("\n"+want+"\n", "\n…\n")
	got = "\n" + got + "\n"
	if len(parts) == 1 {
		return got == parts[0]
	}
	if !strings.HasPrefix(got, parts[0]+"\n") {
		return false
	}
	rest := got[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, "\n"+p+"\n")
		if i < 0 {
			return false
		}
		rest = rest[i+len(p)+1:]
	}
	return strings.HasSuffix(rest, "\n"+parts[len(parts)-1])
}

func readmeExamples(t *testing.T, text string) []readmeExample {
	var out []readmeExample
	in := false
	for i, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "```console"):
			in = true
		case strings.HasPrefix(l, "```"):
			in = false
		case in && strings.HasPrefix(l, "$ "):
			out = append(out, readmeExample{line: i + 1, cmd: l[2:]})
		case in && len(out) > 0:
			out[len(out)-1].want += l + "\n"
		}
	}
	return out
}

// shellWords splits a command line as sh does for the quoting the README
// uses (single and double quotes), dropping a trailing # comment.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	have := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, have = r, true
		case r == '#' && !have:
			return words
		case r == ' ' || r == '\t':
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		words = append(words, cur.String())
	}
	return words
}

// Every figure in the README and the manual in docs/ comes from a command
// the page shows: each console example is run and its output compared,
// line by line, with what the page prints under it.
func TestReadmeExamples(t *testing.T) {
	t.Chdir("..")
	for _, file := range docPages(t) {
		checkConsoleBlocks(t, file)
	}
}

// docPages lists README.md, CONTRIBUTING.md and every page of the
// manual in docs/.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md", "CONTRIBUTING.md"}, pages...)
}

// checkConsoleBlocks runs the console examples of one page, from the
// repository root, and reports a mismatch at file:line.
func checkConsoleBlocks(t *testing.T, file string) {
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lastCode := 0
	lines := strings.Split(string(text), "\n")
	examples := readmeExamples(t, string(text))
	defer func() {
		if *update {
			os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644)
		}
	}()
	for k, ex := range examples {
		words := shellWords(ex.cmd)
		if len(words) == 2 && words[0] == "echo" && words[1] == "$?" {
			if got := strconv.Itoa(lastCode) + "\n"; got != ex.want {
				t.Errorf("%s:%d: exit %s, the page says %s", file, ex.line, got, ex.want)
			}
			continue
		}
		if len(words) == 0 || words[0] != "lbctl" || strings.Contains(ex.cmd, "<TAB>") {
			continue // completion is checked by the shell tests
		}
		head, stdoutOnly := -1, false
		var args []string
		for i := 1; i < len(words); i++ {
			switch w := words[i]; {
			case w == "|" && i+2 < len(words) && words[i+1] == "head":
				head, _ = strconv.Atoi(strings.TrimPrefix(words[i+2], "-"))
				i += 2
			case w == "2>/dev/null":
				stdoutOnly = true
			default:
				args = append(args, w)
			}
		}
		code, out, errs := termRun(t, nil, args...)
		lastCode = code
		got := out
		if !stdoutOnly {
			got = errs + out
		}
		if head >= 0 {
			lines := strings.SplitAfter(got, "\n")
			got = strings.Join(lines[:min(head, len(lines))], "")
		}
		got, want := strings.TrimRight(got, "\n"), strings.TrimRight(ex.want, "\n")
		if *update && !strings.Contains(want, "…") && got != want {
			n := strings.Count(ex.want, "\n")
			lines = append(lines[:ex.line], append(strings.Split(got, "\n"), lines[ex.line+n:]...)...)
			shift := strings.Count(got, "\n") + 1 - n
			for j := k + 1; j < len(examples); j++ {
				examples[j].line += shift
			}
			continue
		}
		if !matchElided(got, want) {
			t.Errorf("%s:%d: $ %s\ngot:\n%s\n%s:\n%s", file, ex.line, ex.cmd, got, file, ex.want)
		}
	}
}

// mdLink is a markdown link or image target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks: every relative link of README.md, CONTRIBUTING.md and
// docs/*.md names an existing file and every #anchor a heading of its page.
func TestDocLinks(t *testing.T) {
	t.Chdir("..")
	for _, file := range docPages(t) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), path)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %s: no file %s", file, i+1, target, dest)
						continue
					}
				}
				if anchor != "" && !hasAnchor(t, dest, anchor) {
					t.Errorf("%s:%d: link %s: no heading #%s in %s", file, i+1, target, anchor, dest)
				}
			}
		}
	}
}

// hasAnchor reports whether a markdown file has a heading whose GitHub
// anchor is anchor: lower case, spaces to '-', punctuation dropped.
func hasAnchor(t *testing.T, file, anchor string) bool {
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(text), "\n") {
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		if b.String() == anchor {
			return true
		}
	}
	return false
}
