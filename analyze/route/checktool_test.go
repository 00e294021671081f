package route

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// checkCase is one router_check_tool test's input and expectations,
// transcribed into fixtures/route/checktool/*.cases.
type checkCase struct {
	Name      string      `json:"name"`
	Authority string      `json:"authority"`
	Path      string      `json:"path"`
	Method    string      `json:"method"`
	Headers   [][2]string `json:"headers"`
	SSL       bool        `json:"ssl"`
	Internal  bool        `json:"internal"`
	Random    *uint64     `json:"random"`
	Cluster   *string     `json:"cluster"`
	VHost     string      `json:"vhost"`
	Action    string      `json:"action"`
	Location  string      `json:"location"`
}

func (c checkCase) request() Request {
	return Request{Authority: c.Authority, Path: c.Path, Method: c.Method, Headers: c.Headers, SSL: c.SSL, Internal: c.Internal, RandomValue: c.Random}
}

func loadFile(t testing.TB, path string) *config.Config {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadBytes(filepath.Base(path), data, "")
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cfg
}

// TestCheckToolSuites: every expectation of our transcriptions of Envoy's
// router_check_tool suites (test/tools/router_check/test/config:
// TestRoutes, Redirect, Weighted, HeaderMatchedRouting, ClusterHeader)
// agrees with Build.
func TestCheckToolSuites(t *testing.T) {
	files, _ := filepath.Glob("../../fixtures/route/checktool/*.yaml")
	if len(files) < 5 {
		t.Fatalf("fixtures missing: %v", files)
	}
	for _, f := range files {
		cfg := loadFile(t, f)
		data, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".cases")
		if err != nil {
			t.Fatal(err)
		}
		var cases []checkCase
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(filepath.Base(f)+"/"+c.Name, func(t *testing.T) {
				r, err := Build(cfg, c.request(), Options{}, Balancers{})
				if err != nil {
					t.Fatal(err)
				}
				checkReport(t, r, c)
			})
		}
	}
}

func checkReport(t *testing.T, r *Report, c checkCase) {
	t.Helper()
	if c.Cluster != nil && r.Cluster != *c.Cluster {
		t.Errorf("cluster %q, want %q (action %s, steps %q)", r.Cluster, *c.Cluster, r.Action, r.Steps())
	}
	if c.VHost != "" && (r.VirtualHost == nil || *r.VirtualHost != c.VHost) {
		t.Errorf("virtual host %v, want %q", r.VirtualHost, c.VHost)
	}
	if c.Action != "" && r.Action != c.Action {
		t.Errorf("action %q, want %q", r.Action, c.Action)
	}
	if c.Location != "" {
		if r.Redirect == nil {
			t.Fatalf("no redirect, want %s (action %s, steps %q)", c.Location, r.Action, r.Steps())
		}
		if r.Redirect.Location != c.Location {
			t.Errorf("location %q, want %q", r.Redirect.Location, c.Location)
		}
	} else if r.Redirect != nil {
		t.Errorf("unexpected redirect to %s", r.Redirect.Location)
	}
}
