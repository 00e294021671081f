package config

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusDir holds real, unmodified Envoy configs and admin dumps from public
// projects (../shared/corpus beside the repository). They are not copied
// into the repository; the test is skipped where they are absent.
const corpusDir = "../../../shared/corpus"

// TestCorpusLoads reads every corpus file: lbctl must read them all without
// an error (warnings for v2 syntax or unknown extensions are expected).
func TestCorpusLoads(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*"))
	if len(files) == 0 {
		t.Skip("no corpus beside the repository")
	}
	n := 0
	for _, f := range files {
		if !yamlOrJSON(f) {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			cfg, err := Load([]Input{{Path: f}}, "")
			if err != nil {
				t.Errorf("load: %v", err)
			}
			for _, p := range cfg.Problems {
				if testing.Verbose() {
					t.Logf("%s %s", p.Severity, p.Error())
				}
			}
			if os.Getenv("LBCTL_CORPUS_STATS") != "" {
				t.Logf("%d clusters, %d assignments, %d routes", len(cfg.Clusters), len(cfg.Assignments), len(cfg.Routes))
			}
		})
	}
	if n == 0 {
		t.Fatal("corpus has no config file")
	}
}
