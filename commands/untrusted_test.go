package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/subset"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// TestEmptySlicesNotNull: every list of the contract's JSON is [] when
// empty ("notes": null was printed for a cluster without notes).
func TestEmptySlicesNotNull(t *testing.T) {
	nullList := regexp.MustCompile(`"(notes|hosts|priorities|lookups|subsets|endpoints|rows|clusters|levels|cluster_load|localities|addresses|to|keys|receiving|steps|differences|override_host_status|policies)": null`)
	for _, v := range []any{
		&traffic.Report{Clusters: []traffic.ClusterReport{{Name: "web"}}},
		&hashing.HashReport{},
		&subset.SubsetReport{},
		&proxyless.SessionReport{},
		&proxyless.BothReport{},
		&failure.Sweep{},
	} {
		encode.EmptySlices(v)
		var b bytes.Buffer
		if err := encode.JSON(&b, v); err != nil {
			t.Fatal(err)
		}
		if m := nullList.FindString(b.String()); m != "" {
			t.Errorf("%T: %s\n%s", v, m, b.String())
		}
	}
	// And through the command: a cluster with no notes.
	out, _, code := run(t, "", "-o", "json", "explain", "../fixtures/priority-two-levels.yaml")
	if code != 0 || strings.Contains(out, `"notes": null`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	var rep struct {
		Clusters []struct{ Notes []string } `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
}

// TestEscapeStrings: report strings from the input are escaped before the
// text renderers, map keys included; lbctl's own prose is unchanged.
func TestEscapeStrings(t *testing.T) {
	r := &traffic.Report{Clusters: []traffic.ClusterReport{{Name: "a\x1b[2J\nb", Notes: []string{"P0 → P1 · ok"}}}}
	encode.EscapeStrings(r)
	if got := r.Clusters[0].Name; got != `a\x1b[2J\nb` {
		t.Errorf("name %q", got)
	}
	if got := r.Clusters[0].Notes[0]; got != "P0 → P1 · ok" {
		t.Errorf("note %q", got)
	}
	m := &struct{ M map[string][]string }{M: map[string][]string{"k\x07": {"v\x1b"}}}
	encode.EscapeStrings(m)
	if got := m.M[`k\a`]; len(got) != 1 || got[0] != `v\x1b` || len(m.M) != 1 {
		t.Errorf("map %q", m.M)
	}
}

// TestColourPassesGuard: with --color always, lbctl's colour reaches the
// output and the input's escape sequences do not.
func TestColourPassesGuard(t *testing.T) {
	_, out, _ := termRun(t, nil, "--color", "always", "lint", "../fixtures/lint/LB1108-bad.yaml")
	if !strings.Contains(out, "\x1b[") {
		t.Fatalf("no colour:\n%q", out)
	}
	for _, seq := range regexp.MustCompile("\x1b[^m]*m").FindAllString(out, -1) {
		if !regexp.MustCompile(`^\x1b\[[0-9;]*m$`).MatchString(seq) {
			t.Errorf("unexpected sequence %q", seq)
		}
	}
}

// TestLongValuesCapped: a 5000-byte cluster name on a one-line JSON file:
// each finding's message quotes at most 256 bytes of it, each snippet line
// is a window, and completion does not offer a name with a newline.
func TestLongValuesCapped(t *testing.T) {
	long := strings.Repeat("n", 5000)
	doc := `{"clusters":[{"name":"` + long + `","type":"STATIC","lb_policy":"RING_HASH","ring_hash_lb_config":{"minimum_ring_size":128,"maximum_ring_size":64},` +
		`"load_assignment":{"cluster_name":"x","endpoints":[{"lb_endpoints":[{"endpoint":{"address":{"socket_address":{"address":"10.0.0.1","port_value":80}}}}]}]}},` +
		`{"name":"bad\nname","type":"STATIC"}]}` + "\n"
	f := filepath.Join(t.TempDir(), "long.json")
	if err := os.WriteFile(f, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "", "lint", "--format", "json", f)
	var rep struct {
		Findings []struct{ Rule, Message string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitFindings {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	found := false
	for _, fd := range rep.Findings {
		if fd.Rule == "LB1108" {
			found = true
			if len(fd.Message) > 400 || !strings.Contains(fd.Message, "more bytes)") {
				t.Errorf("message of %d bytes: %.200s", len(fd.Message), fd.Message)
			}
		}
	}
	if !found {
		t.Errorf("no LB1108 finding:\n%.2000s", out)
	}
	out, _, _ = run(t, "", "lint", f)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "    hint:") && len(l) > 4+config.SnippetWidth+6 {
			t.Errorf("snippet line of %d bytes: %.200s", len(l), l)
		}
	}
	vals, _ := completeReq(t, "", "explain", f, "--cluster")
	if len(vals) != 1 || vals[0] != long {
		t.Errorf("completion offers %d names, want only the long one", len(vals))
	}
}

// TestEscapeStringsAliases: a pointer to a slice's first element, or a
// shorter slice of the same array, visited first does not hide the rest
// of the slice, and a value reached twice is escaped once.
func TestEscapeStringsAliases(t *testing.T) {
	type item struct{ Name string }
	items := []item{{"a\x1b"}, {"b\n"}, {"c\x07"}}
	r := &struct {
		First *item
		Short []item
		All   []item
	}{First: &items[0], Short: items[:1], All: items}
	encode.EscapeStrings(r)
	for i, want := range []string{`a\x1b`, `b\n`, `c\a`} {
		if items[i].Name != want {
			t.Errorf("item %d: %q, want %q", i, items[i].Name, want)
		}
	}
}
