package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestDuplicateKeySeverity: Envoy's YAML loader keeps a repeated key's last
// value (yaml_utility.cc parseYamlNode); LB0002 warns only when the first
// value would change a cluster, its endpoints or a route configuration, and
// names which; protobuf's JSON parser rejects a field set twice
// (MessageUtil::loadFromJson throws), an error.
func TestDuplicateKeySeverity(t *testing.T) {
	type want struct {
		line int
		sev  Severity
		msg  string
	}
	cases := []struct {
		file  string
		wants []want
	}{
		{filepath.Join(fixtureDir, "LB0002-bad.yaml"), []want{{6, SevWarning, `the first value would change cluster "web" (lb_policy)`}}},
		{filepath.Join(fixtureDir, "LB0002-info.yaml"), []want{
			{5, SevInfo, "with the first value no cluster, endpoint or route lbctl reports on would differ"},
			{13, SevInfo, "the two values are equal"},
		}},
		// Inside a ConfigMap's envoy.yaml: placed in the ConfigMap file,
		// the lines in the message too.
		{"../fixtures/inputs/configmap-duplicate-key.yaml", []want{{12, SevWarning, `(first at line 11) with a different value: Envoy's YAML loader keeps the last, the value at line 12 ("RING_HASH"), and ignores the others; the first value would change cluster "web" (lb_policy)`}}},
		{"../fixtures/inputs/duplicate-key-last-wins.yaml", []want{{6, SevWarning, `cluster "backend" (lb_policy)`}}},
		{"../fixtures/broken/duplicate-key.json", []want{{4, SevError, "Envoy rejects the file"}}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			var got []Finding
			for _, f := range lintFiles([]config.Input{{Path: c.file}}, TargetEnvoy) {
				if f.Rule == "LB0002" {
					got = append(got, f)
				}
			}
			if len(got) != len(c.wants) {
				t.Fatalf("%d LB0002 findings, want %d: %v", len(got), len(c.wants), got)
			}
			for i, w := range c.wants {
				f := got[i]
				if f.Pos.Line != w.line || f.Severity != w.sev || !strings.Contains(f.Message, w.msg) {
					t.Errorf("got %d %s %q\nwant %d %s …%q…", f.Pos.Line, f.Severity, f.Message, w.line, w.sev, w.msg)
				}
			}
		})
	}
}
