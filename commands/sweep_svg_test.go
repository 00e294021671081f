package commands

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/sweep"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// svgOutline is an SVG's structure: one line per element (name, class,
// data-series) and per text, indented by depth, without coordinates, so
// the golden files pin what the chart shows, not where its pixels are.
func svgOutline(t *testing.T, svg string) string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	var b strings.Builder
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			line := e.Name.Local
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "class", "data-series", "fill", "role":
					line += fmt.Sprintf(" %s=%q", a.Name.Local, a.Value)
				}
			}
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), line)
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if s := strings.TrimSpace(string(e)); s != "" {
				fmt.Fprintf(&b, "%s%q\n", strings.Repeat("  ", depth), s)
			}
		}
	}
	return b.String()
}

func TestSweepSVGGolden(t *testing.T) {
	for _, c := range []struct{ golden, fixture, cluster string }{
		{"sweep-priority-two-levels.svg.outline", "../fixtures/priority-two-levels.yaml", "backend"},
		{"sweep-priority-three-levels.svg.outline", "../fixtures/priority-three-levels.yaml", "backend"},
		{"sweep-aggregate.svg.outline", "../fixtures/aggregate.yaml", "aggregate_cluster"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "chart.svg")
			if _, errs, code := run(t, "", "sweep", c.fixture, "--cluster", c.cluster, "--svg", path); code != 0 {
				t.Fatal(errs)
			}
			svg, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := svgOutline(t, string(svg))
			golden := filepath.Join("testdata", c.golden)
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("SVG outline differs from %s (go test ./commands -run SVG -update):\n%s", golden, got)
			}
		})
	}
}

// TestSweepSVGEscapes: names from the configuration cannot break the SVG.
func TestSweepSVGEscapes(t *testing.T) {
	s := failure.Sweep{Cluster: `a<b>&"c`, Varied: failure.Varied{Cluster: "x</title>", Priority: -1}, Rows: []failure.SweepRow{
		{Steps: []failure.SweepStep{{Healthy: 1, Total: 1, Health: 100}}, ClusterLoad: []lbmodel.ClusterLoad{{Cluster: "<script>", Load: 100}}},
		{Steps: []failure.SweepStep{{Healthy: 0, Total: 1, Health: 0}}, ClusterLoad: []lbmodel.ClusterLoad{{Cluster: "<script>", Load: 100}}, TotalPanic: true},
	}}
	out := svgOutline(t, sweep.SVG(s))
	for _, want := range []string{`"a<b>&\"c: load per child cluster as x</title> loses health"`, `"<script>"`, `line class="panic"`} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %s:\n%s", want, out)
		}
	}
}

// TestReadmeChart: the README's chart is what the command it shows writes.
func TestReadmeChart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.svg")
	if _, errs, code := run(t, "", "sweep", "../fixtures/sweep/priority-100.yaml", "--cluster", "backend",
		"--set-health", "backend/1=40", "--svg", path); code != 0 {
		t.Fatal(errs)
	}
	got, _ := os.ReadFile(path)
	want, err := os.ReadFile("../docs/sweep-total-panic.svg")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("docs/sweep-total-panic.svg is stale: rerun the README's lbctl sweep ... --svg command")
	}
}

// TestSweepSVGEscapesControlCharacters: a cluster name with an escape
// sequence and a newline gives well-formed XML without raw controls.
func TestSweepSVGEscapesControlCharacters(t *testing.T) {
	s := failure.Sweep{Cluster: "web\x1b[2J\n<b>&"}
	svg := sweep.SVG(s)
	if strings.ContainsAny(svg, "\x1b") || !strings.Contains(svg, `web\x1b[2J\n&lt;b&gt;&amp;`) {
		t.Errorf("cluster name not escaped:\n%.600s", svg)
	}
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
	}
}
