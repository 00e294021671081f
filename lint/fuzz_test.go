package lint

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/fixtures/fuzzing"
)

// FuzzLint feeds arbitrary bytes to the loader and every rule for Envoy and
// gRPC, then renders each finding's snippet as lint's text format does:
// never a panic, and a snippet is one bounded line without control
// characters. Seeds: the lint fixtures, and testdata/fuzz.
func FuzzLint(f *testing.F) {
	fuzzing.AddFixtures(f, "../fixtures/lint/*.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := fuzzing.Load(t, data)
		for _, fd := range Run(cfg, Options{Targets: []Target{TargetEnvoy, TargetGRPC}}) {
			text, caret, ok := cfg.Sources.Snippet(fd.Pos.File, fd.Pos.Line, fd.Pos.Col)
			if !ok {
				continue
			}
			if strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Errorf("snippet holds a control character: %q", text)
			}
			if len(text) > 4*config.SnippetWidth+6 || caret < 0 || caret > len(text) {
				t.Errorf("snippet %d bytes, caret %d: %q", len(text), caret, text)
			}
		}
	})
}
