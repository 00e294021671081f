package config

import (
	"reflect"
	"strings"
	"testing"
)

// Line and Lines index the kept text on demand; they must give what
// splitting the whole file up front gave: lines without "\n" or "\r\n",
// a lone "\r" kept, a last line after the final newline.
func TestLinesOnDemand(t *testing.T) {
	for _, text := range []string{"", "x", "x\n", "a\r\nb\rc\n\r\n", "\r\n", "a\n\nb", "a\r\r\nb\r"} {
		want := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
		s := newSources()
		s.addFile("f", text)
		for i := 0; i <= len(want)+1; i++ {
			w := ""
			if i >= 1 && i <= len(want) {
				w = want[i-1]
			}
			if got := s.Line("f", i); got != w {
				t.Errorf("%q: Line(%d) = %q, want %q", text, i, got, w)
			}
		}
		if got := s.Lines("f"); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: Lines = %q, want %q", text, got, want)
		}
	}
	if s := newSources(); s.Line("none", 1) != "" || s.Lines("none") != nil {
		t.Error("a file never added has lines")
	}
}

// Positions survive the tree's compaction: every recorded message of a
// JSON input is found at the line:col its node has, and FieldPos finds
// keys in both spellings.
func TestPositionsOfJSONInput(t *testing.T) {
	src := "{\"name\": \"c\", \"type\": \"STATIC\",\n \"loadAssignment\": {\"cluster_name\": \"c\", \"endpoints\": [\n  {\"lb_endpoints\": [{\"endpoint\": {\"address\": {\"socket_address\": {\"address\": \"1.2.3.4\", \"port_value\": 80}}}}]}]}}\n"
	cfg, err := LoadBytes("c.json", []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Clusters[0].Proto
	if got := cfg.Sources.Pos(c).String(); got != "c.json:1:1" {
		t.Errorf("cluster at %s", got)
	}
	if got := cfg.Sources.FieldPos(c, "load_assignment").String(); got != "c.json:2:2" {
		t.Errorf("load_assignment key at %s", got)
	}
	la := c.GetLoadAssignment()
	if got := cfg.Sources.Pos(la).String(); got != "c.json:2:20" {
		t.Errorf("load_assignment at %s", got)
	}
	ep := la.GetEndpoints()[0].GetLbEndpoints()[0]
	if got := cfg.Sources.ValuePos(ep.GetEndpoint().GetAddress().GetSocketAddress(), "port_value").String(); got != "c.json:3:102" {
		t.Errorf("port_value at %s", got)
	}
	if got := cfg.Sources.Line("c.json", 2); got != ` "loadAssignment": {"cluster_name": "c", "endpoints": [` {
		t.Errorf("line 2 = %q", got)
	}
}
