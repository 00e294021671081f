package config

import "testing"

// TestMisshapenKindKeys: top-level clusters:/listeners:/endpoints:/routes:
// keys whose items do not fit the kind (Helm values) are no match: one
// "not Envoy" notice, no field or type errors. One fitting item keeps the
// match, so a real list's typo is still reported.
func TestMisshapenKindKeys(t *testing.T) {
	for name, src := range map[string]string{
		"clusters-labels.yaml": "replicaCount: 2\nclusters:\n- {name: east, region: us-east-1, kubeconfig: /etc/east}\n",
		"clusters-names.yaml":  "clusters: [east, west]\nimage: x\n",
		"listeners-ports.yaml": "listeners: [8080, 9090]\nimage: envoy\n",
		"endpoints-urls.yaml":  "endpoints:\n- {url: https://a, token: x}\n",
		"routes-paths.yaml":    "routes:\n- {path: /a, service: b}\n",
	} {
		cfg, _ := Load([]Input{{Path: name, Data: []byte(src)}}, "")
		if len(cfg.Problems) != 1 || cfg.Problems[0].Code != CodeUnknownKind || cfg.Problems[0].Pos.Line != 1 {
			t.Errorf("%s: problems %v, want one unknown-kind notice at line 1", name, cfg.Problems)
		}
	}
	real := "clusters:\n- {name: a, type: STATIC, conect_timeout: 1s}\n- {name: b, region: x, zone: y}\n"
	cfg, _ := Load([]Input{{Path: "dump.yaml", Data: []byte(real)}}, "")
	unknown := 0
	for _, p := range cfg.Problems {
		if p.Code == CodeUnknownField {
			unknown++
		}
	}
	if len(cfg.Clusters) != 2 || unknown != 3 {
		t.Errorf("dump.yaml: %d clusters, %d unknown fields (%v); want 2 and 3", len(cfg.Clusters), unknown, cfg.Problems)
	}
}

// TestCarrierItems: an item {name, value} whose string is an Envoy
// resource is read as that resource, placed inside the string; a string
// that is no Envoy document leaves the item read as before.
func TestCarrierItems(t *testing.T) {
	src := "clusters:\n- name: a\n  value: |\n    name: a\n    type: STATIC\n    lb_policy: MAGLEV\n"
	cfg, _ := Load([]Input{{Path: "c.yaml", Data: []byte(src)}}, "")
	if len(cfg.Clusters) != 1 || cfg.Clusters[0].Name() != "a" || len(cfg.Problems) != 0 {
		t.Fatalf("carrier: %d clusters, problems %v", len(cfg.Clusters), cfg.Problems)
	}
	c := cfg.Clusters[0].Proto
	if got := cfg.Sources.Pos(c).String(); got != "c.yaml:4:5" {
		t.Errorf("carrier cluster at %s, want c.yaml:4:5", got)
	}
	if got := cfg.Sources.FieldPos(c, "lb_policy").String(); got != "c.yaml:6:5" {
		t.Errorf("lb_policy at %s, want c.yaml:6:5", got)
	}
	plain := "clusters:\n- name: b\n  type: STATIC\n  note: |\n    owner: team\n    since: 2024\n"
	cfg, _ = Load([]Input{{Path: "p.yaml", Data: []byte(plain)}}, "")
	if len(cfg.Clusters) != 1 || cfg.Clusters[0].Name() != "b" {
		t.Errorf("plain string: %d clusters, problems %v; want cluster b read as before", len(cfg.Clusters), cfg.Problems)
	}
}
