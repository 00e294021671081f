package commands

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// readmeSection returns the README's text from heading to the next "## ".
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, s, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	s, _, _ = strings.Cut(s, "\n## ")
	return s
}

// TestReadmeLiveCommands runs every command of the README's "Live inputs"
// section: the sh lines against an in-process admin server standing in for
// the Envoy at 127.0.0.1:9901 (with or without the /admin prefix).
func TestReadmeLiveCommands(t *testing.T) {
	dump, clusters := liveFixtures(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch strings.TrimPrefix(r.URL.Path, "/admin") {
		case "/config_dump":
			w.Write(dump)
		case "/clusters":
			w.Write(clusters)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	sec := readmeSection(t, "## Live inputs")
	ran := 0
	for _, block := range strings.Split(sec, "```")[1:] {
		lang, body, _ := strings.Cut(block, "\n")
		switch lang {
		case "sh":
			for _, line := range strings.Split(body, "\n") {
				line, _, _ = strings.Cut(line, "#")
				args := strings.Fields(strings.ReplaceAll(line, "http://127.0.0.1:9901", srv.URL))
				if len(args) == 0 || args[0] != "lbctl" {
					continue
				}
				for i, a := range args {
					if a == "--observe" || a == "--watch" {
						args[i+1] = "10ms" // the README's durations are for people
					}
				}
				if _, errs, code := runEnv("", watchEnv(1), args[1:]...); code != 0 {
					t.Errorf("%s: exit %d: %s", line, code, errs)
				}
				ran++
			}
		}
		// console blocks are run by TestReadmeExamples.
	}
	if ran < 5 {
		t.Errorf("ran %d README commands; the section's blocks were not found", ran)
	}
}
