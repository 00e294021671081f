package commands

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Each fixture case's text, JSON, Markdown and GitHub output is its golden file
// (the numbers in them are checked against explain in analyze/diff).
func TestDiffGolden(t *testing.T) {
	t.Chdir("..")
	dirs, _ := filepath.Glob("fixtures/diff/*")
	if len(dirs) < 10 {
		t.Fatalf("%d fixture cases", len(dirs))
	}
	for _, dir := range dirs {
		for _, f := range []struct{ ext, o string }{{"txt", "text"}, {"json", "json"}, {"md", "markdown"}, {"github", "github"}} {
			t.Run(filepath.Base(dir)+" "+f.o, func(t *testing.T) {
				code, out, errs := termRun(t, nil, "diff", dir+"/old.yaml", dir+"/new.yaml", "-o", f.o)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				golden := filepath.Join(dir, "expected."+f.ext)
				if *update {
					if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./commands -run TestDiffGolden -update writes it)", err)
				}
				if out != string(want) {
					t.Errorf("output differs from %s:\n%s", golden, out)
				}
			})
		}
	}
}

func TestDiffExitCodes(t *testing.T) {
	t.Chdir("..")
	h := "fixtures/diff/hash/"
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{h + "old.yaml", h + "new.yaml"}, 0},
		{[]string{h + "old.yaml", h + "new.yaml", "--exit-code"}, 1},
		{[]string{h + "old.yaml", h + "old.yaml", "--exit-code"}, 0},
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on-remap", "25"}, 1}, // Maglev moves 25.04%
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on-remap", "26"}, 0},
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on-shift", "24.9"}, 1}, // a Maglev host: 25 → 0
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on-shift", "25"}, 0},
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on", "new-findings"}, 1},
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on", "error"}, 0}, // the new finding is a warning
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on", "warning"}, 1},
		{[]string{"fixtures/diff/priority/old.yaml", "fixtures/diff/priority/new.yaml", "--fail-on-shift", "43"}, 1}, // P1 0 → 44%
		// graded's P0: healthy 100 → 56, degraded 0 → 44: no priority shift; a host's is 8 points.
		{[]string{"fixtures/diff/settings/old.yaml", "fixtures/diff/settings/new.yaml", "--fail-on-shift", "8.5"}, 0},
		{[]string{"fixtures/diff/settings/old.yaml", "fixtures/diff/settings/new.yaml", "--fail-on-shift", "7.5"}, 1},
		{[]string{h + "old.yaml"}, 2},
		{[]string{h + "old.yaml", h + "new.yaml", "--fail-on-shift", "101"}, 2},
		{[]string{h + "old.yaml", "no/such.yaml"}, 3},
		{[]string{h + "old.yaml", "fixtures/broken/" + firstBroken(t)}, 3},
	} {
		code, out, errs := termRun(t, nil, append([]string{"diff"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("diff %s: exit %d, want %d\n%s%s", strings.Join(tc.args, " "), code, tc.code, errs, out)
		}
	}
}

func firstBroken(t *testing.T) string {
	fs, _ := filepath.Glob("fixtures/broken/*.yaml")
	if len(fs) == 0 {
		t.Fatal("no broken fixture")
	}
	return filepath.Base(fs[0])
}

// Findings are matched by rule, message and cluster, not by line: lines
// moved by an edit above them are neither new nor fixed.
func TestDiffFindingsIgnoreLines(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../fixtures/diff/hash/new.yaml")
	if err != nil {
		t.Fatal(err)
	}
	shifted := filepath.Join(dir, "shifted.yaml")
	os.WriteFile(shifted, append([]byte("# one\n# two\n# three\n"), src...), 0o644)
	code, out, errs := termRun(t, nil, "diff", "../fixtures/diff/hash/new.yaml", shifted, "-o", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var r struct {
		Changed  bool
		Findings struct{ New, Fixed []any }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Changed || len(r.Findings.New) != 0 || len(r.Findings.Fixed) != 0 {
		t.Errorf("a pure line shift: %s", out)
	}
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// diff --git in a fresh clone with an uncommitted change, a file added
// and one deleted, a range, and a bad revision.
func TestDiffGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	fx, _ := filepath.Abs("../fixtures/diff")
	origin := t.TempDir()
	read := func(p string) []byte { b, _ := os.ReadFile(filepath.Join(fx, p)); return b }
	os.WriteFile(filepath.Join(origin, "hosts.yaml"), read("hosts/old.yaml"), 0o644)
	os.WriteFile(filepath.Join(origin, "gone.yaml"), read("clusters/old.yaml"), 0o644)
	os.WriteFile(filepath.Join(origin, "README.txt"), []byte("not config\n"), 0o644)
	gitRun(t, origin, "init", "-q")
	gitRun(t, origin, "add", ".")
	gitRun(t, origin, "commit", "-qm", "one")
	clone := filepath.Join(t.TempDir(), "clone")
	gitRun(t, origin, "clone", "-q", origin, clone)
	t.Chdir(clone)
	os.WriteFile("hosts.yaml", read("hosts/new.yaml"), 0o644)
	os.Remove("gone.yaml")
	os.WriteFile("added.yaml", read("policy/new.yaml"), 0o644)

	code, out, errs := termRun(t, nil, "diff", "--git", "HEAD", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct{ Name, Change string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range r.Clusters {
		got[c.Name] = c.Change
	}
	want := map[string]string{"web": "modified", "old-only": "removed", "billing": "removed", "same": "removed", "api": "added"}
	if len(got) != len(want) {
		t.Errorf("clusters %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	// With a PATH, only that file; HEAD..HEAD changes nothing.
	if code, out, errs := termRun(t, nil, "diff", "--git", "HEAD", "hosts.yaml", "--exit-code"); code != 1 || !strings.Contains(out, "web") || strings.Contains(out, "billing") {
		t.Errorf("PATH: exit %d\n%s%s", code, out, errs)
	}
	gitRun(t, clone, "add", "-A")
	gitRun(t, clone, "commit", "-qm", "two")
	if code, out, errs := termRun(t, nil, "diff", "--git", "HEAD~1..HEAD", "-o", "json"); code != 0 || !strings.Contains(out, `"web"`) {
		t.Errorf("range: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := termRun(t, nil, "diff", "--git", "HEAD", "hosts.yaml", "--exit-code"); code != 0 {
		t.Errorf("HEAD vs a clean tree: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = termRun(t, nil, "diff", "--git", "no-such-rev")
	if code != ExitUsage || out != "" || !strings.Contains(errs, "no-such-rev") {
		t.Errorf("bad revision: exit %d, stderr %q", code, errs)
	}
}

// --admin is the old side: the running Envoy against a file.
func TestDiffAdmin(t *testing.T) {
	dump, clusters := liveFixtures(t)
	srv, _ := adminServer(t, "", dump, clusters)
	code, out, errs := termRun(t, nil, "diff", "--admin", srv.URL, "../fixtures/live/config_dump.json", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The file lacks the live health that /clusters adds: 10.0.0.2, which
	// failed an outlier check in the running Envoy, gets its quarter back.
	var r struct {
		Clusters []struct {
			Name  string
			Hosts []struct {
				Address string
				Share   struct{ Old, New *float64 }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Clusters) != 1 || r.Clusters[0].Name != "backend" || r.Clusters[0].Hosts[0].Address != "10.0.0.2:8080" ||
		*r.Clusters[0].Hosts[0].Share.Old != 0 || *r.Clusters[0].Hosts[0].Share.New != 0.25 {
		t.Errorf("got %s", out)
	}
	if code, _, errs := termRun(t, nil, "diff", "--admin", srv.URL); code != ExitUsage {
		t.Errorf("--admin without NEW: exit %d %s", code, errs)
	}
}

// Names from the files reach no output as raw control characters.
func TestDiffNoControlCharacters(t *testing.T) {
	dir := t.TempDir()
	cl := "- name: \"evil\\e[31m|<b>\"\n  type: STATIC\n  load_assignment:\n    cluster_name: \"evil\\e[31m|<b>\"\n    endpoints:\n    - lb_endpoints:\n      - endpoint: { address: { socket_address: { address: ADDR, port_value: 80 } } }\n"
	os.WriteFile(filepath.Join(dir, "old.yaml"), []byte(strings.Replace(cl, "ADDR", "10.0.0.1", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "new.yaml"), []byte(strings.Replace(cl, "ADDR", "10.0.0.2", 1)), 0o644)
	for _, o := range []string{"text", "json", "yaml", "markdown", "github"} {
		code, out, errs := termRun(t, nil, "diff", filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml"), "-o", o)
		if code != 0 || !strings.Contains(out, "evil") {
			t.Fatalf("-o %s: exit %d %s\n%s", o, code, errs, out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' || r == 0x7f {
				t.Errorf("-o %s: control character %q in output", o, r)
				break
			}
		}
	}
}

// Each bootstrap is its own configuration on each side, as lint groups
// inputs: two Envoys with a cluster of the same name are compared each
// with its own, and the changed one is named.
func TestDiffGroupsLikeLint(t *testing.T) {
	boot := func(addr string) []byte {
		return []byte("static_resources:\n  clusters:\n  - name: backend\n    type: STATIC\n    load_assignment:\n      cluster_name: backend\n      endpoints:\n      - lb_endpoints:\n        - endpoint: { address: { socket_address: { address: 10.0.0.1, port_value: 80 } } }\n        - endpoint: { address: { socket_address: { address: " + addr + ", port_value: 80 } } }\n")
	}
	old, new := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(old, "a.yaml"), boot("10.0.0.2"), 0o644)
	os.WriteFile(filepath.Join(old, "b.yaml"), boot("10.0.0.2"), 0o644)
	os.WriteFile(filepath.Join(new, "a.yaml"), boot("10.0.0.2"), 0o644)
	os.WriteFile(filepath.Join(new, "b.yaml"), boot("10.0.0.3"), 0o644)
	os.WriteFile(filepath.Join(new, "c.yaml"), boot("10.0.0.4"), 0o644)
	code, out, errs := termRun(t, nil, "diff", old, new, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct{ Name, Change, Config string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range r.Clusters {
		got[c.Config] = c.Name + " " + c.Change
	}
	want := map[string]string{"b.yaml": "backend modified", "c.yaml": "backend added"}
	if len(got) != 2 || got["b.yaml"] != want["b.yaml"] || got["c.yaml"] != want["c.yaml"] {
		t.Errorf("got %v, want %v\n%s", got, want, out)
	}
}

// diff --git reads the files a directory walk reads: a template of a
// YAML file (envoy.yaml.tpl) is compared too, a bare _helpers.tpl not.
func TestDiffGitTemplate(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	fx, _ := filepath.Abs("../fixtures/diff")
	read := func(p string) []byte { b, _ := os.ReadFile(filepath.Join(fx, p)); return b }
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "envoy.yaml.tpl"), read("hosts/old.yaml"), 0o644)
	os.WriteFile(filepath.Join(repo, "_helpers.tpl"), []byte("{{- define \"x\" -}}{{- end -}}\n"), 0o644)
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-qm", "one")
	t.Chdir(repo)
	os.WriteFile("envoy.yaml.tpl", read("hosts/new.yaml"), 0o644)
	os.WriteFile("_helpers.tpl", []byte("{{- define \"y\" -}}{{- end -}}\n"), 0o644)
	code, out, errs := termRun(t, nil, "diff", "--git", "HEAD", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct{ Name, Change string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Clusters) != 1 || r.Clusters[0].Name != "web" || r.Clusters[0].Change != "modified" {
		t.Errorf("clusters %+v, want web modified\n%s", r.Clusters, errs)
	}
}
