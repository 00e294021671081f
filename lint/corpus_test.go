package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// The corpus test lints ../shared/corpus the way LINT-LABELS.json was made
// (each file alone, and the files of one test case together) and compares
// the warnings and errors with testdata/corpus-findings.txt, so any change
// shows up in review. LBCTL_UPDATE_CORPUS=1 rewrites that file. Every TP
// label must stay reported (same rule, line within 3).

const corpusGolden = "testdata/corpus-findings.txt"

var corpusGroups = []*regexp.Regexp{
	regexp.MustCompile(`^(?P<dir>(?:.*/)?)(?P<pre>.*?)\.(?:clusters|endpoints|routes|listeners?)(?P<suf>(?:\.golden)?\.(?:ya?ml|json))$`),
	regexp.MustCompile(`^(?P<dir>(?:.*/)?)(?P<pre>.*__testdata__)(?:clusters|endpoints|routes|listeners)__(?P<suf>.+)$`),
}

// findCorpus looks for shared/corpus in the parents of the package directory.
func findCorpus() string {
	if d := os.Getenv("LBCTL_CORPUS"); d != "" {
		return d
	}
	dir, _ := filepath.Abs(".")
	for i := 0; i < 5; i++ {
		c := filepath.Join(dir, "shared", "corpus")
		if _, err := os.Stat(filepath.Join(c, "LINT-LABELS.json")); err == nil {
			return c
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

func corpusCase(rel string) string {
	for _, re := range corpusGroups {
		if m := re.FindStringSubmatch(rel); m != nil {
			return m[re.SubexpIndex("dir")] + m[re.SubexpIndex("pre")] + "*" + m[re.SubexpIndex("suf")]
		}
	}
	return ""
}

type corpusFinding struct {
	file, rule string
	line       int
	sev        string
}

func TestCorpus(t *testing.T) {
	root := findCorpus()
	if root == "" {
		t.Skip("shared/corpus not found")
	}
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch d.Name() {
		case "README.md", "PROVENANCE.md", "LINT-LABELS.json":
			return nil
		}
		if !strings.HasPrefix(d.Name(), ".") {
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	run := func(rels []string) []corpusFinding {
		var in []config.Input
		for _, r := range rels {
			in = append(in, config.Input{Path: filepath.Join(root, r)})
		}
		cfg, _ := config.Load(in, "")
		var out []corpusFinding
		for _, f := range Run(cfg, Options{}) {
			if f.Severity < SevWarning {
				continue
			}
			rel, _ := filepath.Rel(root, f.Pos.File)
			out = append(out, corpusFinding{rel, f.Rule, f.Pos.Line, f.Severity.String()})
		}
		return out
	}
	var lines []string
	var all []corpusFinding
	own := map[string]bool{}
	for _, r := range files {
		for _, f := range run([]string{r}) {
			own[fmt.Sprintf("%s %s %d", f.file, f.rule, f.line)] = true
			all = append(all, f)
			lines = append(lines, fmt.Sprintf("%s\t%s\t%d\t%s", f.file, f.rule, f.line, f.sev))
		}
	}
	cases := map[string][]string{}
	for _, r := range files {
		if c := corpusCase(r); c != "" {
			cases[c] = append(cases[c], r)
		}
	}
	for _, g := range cases {
		if len(g) < 2 {
			continue
		}
		for _, f := range run(g) {
			if !own[fmt.Sprintf("%s %s %d", f.file, f.rule, f.line)] {
				all = append(all, f)
				lines = append(lines, fmt.Sprintf("%s\t%s\t%d\t%s\t(with its case)", f.file, f.rule, f.line, f.sev))
			}
		}
	}
	sort.Strings(lines)
	lines = dedupeStrings(lines)
	got := strings.Join(lines, "\n") + "\n"
	if os.Getenv("LBCTL_UPDATE_CORPUS") != "" {
		if err := os.WriteFile(corpusGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(corpusGolden)
	if err != nil {
		t.Fatalf("%v (run with LBCTL_UPDATE_CORPUS=1)", err)
	}
	if string(want) != got {
		t.Errorf("corpus findings changed; review and rerun with LBCTL_UPDATE_CORPUS=1:\n got:\n%s", got)
	}
	checkTPLabels(t, root, all)
}

func checkTPLabels(t *testing.T, root string, all []corpusFinding) {
	data, err := os.ReadFile(filepath.Join(root, "LINT-LABELS.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels []struct {
		Files []string `json:"files"`
		Rule  string   `json:"rule"`
		Line  int      `json:"line"`
		Label string   `json:"label"`
	}
	if err := json.Unmarshal(data, &labels); err != nil {
		t.Fatal(err)
	}
	for _, l := range labels {
		if l.Label != "TP" {
			continue
		}
		found := false
		for _, f := range all {
			d := f.line - l.Line
			if f.rule == l.Rule && f.file == l.Files[0] && d >= -3 && d <= 3 {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("TP no longer reported: %s %s:%d", l.Rule, l.Files[0], l.Line)
		}
	}
}

func dedupeStrings(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
