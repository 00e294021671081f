package commands

import (
	"io"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/fixtures/gen"
	"github.com/lbctl/lbctl/lint"
)

// The work after loading, on a configuration loaded once: what explain
// and lint add to the loader's time (the parse floor is measured beside
// them, as in the end-to-end benchmarks). Output goes through the guard,
// as a command's does.
func benchAfterLoad(b *testing.B, data []byte, withLint bool) {
	cfg, err := config.LoadBytes("in.json", data, "")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("explain-build", func(b *testing.B) {
		for b.Loop() {
			if _, err := explain.Build(cfg, cfg.Clusters, model.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	r, err := explain.Build(cfg, cfg.Clusters, model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("write-json", func(b *testing.B) {
		out := term.NewGuard(io.Discard)
		for b.Loop() {
			if err := encode.JSONOutput(out, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	if withLint {
		b.Run("lint-rules", func(b *testing.B) {
			for b.Loop() {
				lint.RunGroups([]*config.Config{cfg}, lint.Options{})
			}
		})
	}
}

func BenchmarkAfterLoadDump10k(b *testing.B) { benchAfterLoad(b, gen.Dump(10000), true) }

func BenchmarkAfterLoadHosts10k(b *testing.B) {
	for _, policy := range gen.Policies {
		b.Run(policy, func(b *testing.B) { benchAfterLoad(b, gen.One(policy, 10000), false) })
	}
}
