package encode

import (
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/fixtures/gen"
)

// benchEscape escapes the explain report of data, as text output does
// before rendering (names from the generator need no escape: the walk
// is the cost).
func benchEscape(b *testing.B, data []byte) {
	cfg, err := config.LoadBytes("in.json", data, "")
	if err != nil {
		b.Fatal(err)
	}
	r, err := explain.Build(cfg, cfg.Clusters, model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		escapeTraffic(r)
	}
}

var escapeTraffic = func(r *traffic.Report) { EscapeStrings(r) }

func BenchmarkEscapeDump10k(b *testing.B)   { benchEscape(b, gen.Dump(10000)) }
func BenchmarkEscapeHosts100k(b *testing.B) { benchEscape(b, gen.One("ROUND_ROBIN", 100000)) }
