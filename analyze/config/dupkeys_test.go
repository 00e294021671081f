package config

import (
	"strings"
	"testing"
)

// TestDuplicateKeysByFormat: YAML keeps the last value of a repeated key
// (yaml_utility.cc parseYamlNode: struct_fields[key] = …), so the decoded
// cluster has it and the repeat is a warning (info when the value is the
// same); protobuf's JSON parser rejects a field set twice (ParseField).
func TestDuplicateKeysByFormat(t *testing.T) {
	cases := []struct {
		file, text string
		sev        Severity
		policy     string // decoded lb_policy; "" when the load fails
	}{
		{"a.yaml", "name: c\ntype: STATIC\nlb_policy: RANDOM\nlb_policy: MAGLEV\n", SevWarning, "MAGLEV"},
		{"b.yaml", "name: c\ntype: STATIC\nlb_policy: MAGLEV\nlb_policy: MAGLEV\n", SevInfo, "MAGLEV"},
		{"c.yaml", "name: c\ntype: STATIC\nring_hash_lb_config: {minimum_ring_size: 8}\nlb_policy: RING_HASH\nring_hash_lb_config: {maximum_ring_size: 16}\n", SevWarning, "RING_HASH"},
		{"d.json", `{"name": "c", "lb_policy": "RANDOM", "lb_policy": "MAGLEV"}`, SevError, ""},
		{"e.json", "name: c\nlb_policy: RANDOM\nlb_policy: MAGLEV\n", SevError, ""},
	}
	for _, c := range cases {
		cfg, err := LoadBytes(c.file, []byte(c.text), "")
		var dup []Problem
		for _, p := range cfg.Problems {
			if p.Code == CodeDuplicateKey {
				dup = append(dup, p)
			}
		}
		if len(dup) != 1 || dup[0].Severity != c.sev {
			t.Errorf("%s: duplicate-key problems %v, want one of severity %v", c.file, dup, c.sev)
			continue
		}
		if c.policy == "" {
			if err == nil {
				t.Errorf("%s: loaded; JSON with a repeated field must fail", c.file)
			}
			continue
		}
		if err != nil || len(cfg.Clusters) != 1 {
			t.Fatalf("%s: %v, %d clusters", c.file, err, len(cfg.Clusters))
		}
		pc := cfg.Clusters[0].Proto
		if got := pc.GetLbPolicy().String(); got != c.policy {
			t.Errorf("%s: lb_policy %s, want the last value %s", c.file, got, c.policy)
		}
		if c.file == "c.yaml" {
			// The whole later mapping replaces the earlier one: no merge.
			r := pc.GetRingHashLbConfig()
			if r.GetMinimumRingSize() != nil || r.GetMaximumRingSize().GetValue() != 16 {
				t.Errorf("c.yaml: ring_hash_lb_config %v, want only maximum_ring_size 16", r)
			}
			if !strings.Contains(dup[0].Msg, "line 5") {
				t.Errorf("c.yaml: %q does not name the value Envoy uses", dup[0].Msg)
			}
		}
	}
}
