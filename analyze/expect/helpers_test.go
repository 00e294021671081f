package expect

import (
	"os"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// reportsOf loads fixtures and answers with the real explain and hash
// reports, as the command will.
func reportsOf(t *testing.T, files ...string) (*config.Config, Reports) {
	t.Helper()
	var in []config.Input
	for _, f := range files {
		in = append(in, config.Input{Path: "../../fixtures/" + f})
	}
	cfg, err := config.Load(in, "")
	if err != nil {
		t.Fatal(err)
	}
	return cfg, reportsFor(cfg)
}

// reportsFor answers for cfg with the real explain and hash reports.
func reportsFor(cfg *config.Config) Reports {
	return Reports{
		Clusters: cfg.ClusterNames(),
		Cluster: func(name string, g Given) (*traffic.Report, error) {
			opt, err := g.Options()
			if err != nil {
				return nil, err
			}
			return explain.Build(cfg, []*config.Cluster{cfg.Cluster(name)}, opt)
		},
		Hosts:       func(name string) []string { return model.Addresses(cfg, cfg.Cluster(name)) },
		NestedHosts: func(name string) []string { return model.NestedAddresses(cfg, cfg.Cluster(name)) },
		Moved: func(name string, remove []string) (float64, error) {
			r, err := hashing.Build(cfg, cfg.Cluster(name), hashing.HashOptions{Remove: remove})
			if err != nil {
				return 0, err
			}
			return *r.Moved, nil
		},
	}
}

func parseFile(t *testing.T, path string) *File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(path, data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

var fixtureConfigs = []string{"priority-two-levels.yaml", "aggregate.yaml", "hash/ring-basic.yaml"}
