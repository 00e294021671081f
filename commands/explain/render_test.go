package explain

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/charmbracelet/lipgloss"
)

// explainFixture renders the aggregate fixture's report through a Term
// that believes it is a terminal of the given width.
func explainFixture(t *testing.T, width int) string {
	t.Helper()
	cfg, err := config.Load([]config.Input{{Path: "../../fixtures/aggregate.yaml"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Build(cfg, cfg.Clusters, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tm, b := term.Test()
	tm.SetTerminal(width)
	renderExplain(tm, rep, true)
	return b.String()
}

// At 80 columns no line is longer than the terminal (it would wrap and
// break the table), every host stays on one row, and box drawing is used.
func TestExplainFitsTerminalWidth(t *testing.T) {
	for _, width := range []int{80, 100, 200} {
		out := explainFixture(t, width)
		for i, line := range strings.Split(out, "\n") {
			if w := lipgloss.Width(line); w > width {
				t.Errorf("width %d: line %d is %d columns: %q", width, i+1, w, line)
			}
		}
		if !strings.Contains(out, "─") {
			t.Errorf("width %d: no box drawing on a terminal", width)
		}
		// 30 + 8 + 4 hosts: each address on exactly one row with its share.
		for _, row := range []string{"10.0.0.10:8080", "10.1.1.4:8080", "10.2.0.1:8080"} {
			if n := strings.Count(out, row+" "); n < 1 {
				t.Errorf("width %d: host %s missing or cut:\n%s", width, row, out)
			}
		}
		if !regexp.MustCompile(`(?m)^primary\s+10\.0\.0\.1:8080\s+P0\s+-\s+UNKNOWN\s+1\s+2\.80%`).MatchString(out) {
			t.Errorf("width %d: aggregate host row for 10.0.0.1 not on one line:\n%s", width, out)
		}
	}
}

// overviewTable writes over 100 rows what encode.Table would, faster.
func TestOverviewTableMatchesEncode(t *testing.T) {
	var rows [][]string
	for i := range 150 {
		rows = append(rows, []string{fmt.Sprintf("svc-%d", i*37%1000), "ROUND_ROBIN", fmt.Sprintf("%d/%d", i%4, i%7+4), "100%", "no", "never", map[bool]string{true: "spilling", false: ""}[i%3 == 0]})
	}
	for _, width := range []int{0, 200} {
		tm, _ := term.Test()
		if width > 0 {
			tm.SetTerminal(width)
		}
		if got, want := overviewTable(tm, overviewHeaders, rows, 2, 5), encode.Table(tm, overviewHeaders, rows, 2, 5); got != want {
			t.Errorf("width %d:\n%s\nwant:\n%s", width, got, want)
		}
	}
}
