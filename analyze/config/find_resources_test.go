package config

import "testing"

// TestResourcesMapIsNotDiscovery: Helm values whose resources: is a
// mapping (container limits) are not a DiscoveryResponse with a malformed
// list: nothing in them is Envoy config, so the file is one "not Envoy"
// notice (skipped in a directory walk), not a type error. A resources: list
// still reads as a DiscoveryResponse.
func TestResourcesMapIsNotDiscovery(t *testing.T) {
	values := "replicaCount: 2\nresources:\n  limits: {cpu: 500m}\n"
	cfg, _ := Load([]Input{{Path: "values.yaml", Data: []byte(values)}}, "")
	if len(cfg.Problems) != 1 || cfg.Problems[0].Code != CodeUnknownKind || cfg.Problems[0].Pos.Line != 1 {
		t.Errorf("values.yaml: problems %v, want one unknown-kind notice at line 1", cfg.Problems)
	}
	dr := "resources:\n- \"@type\": type.googleapis.com/envoy.config.cluster.v3.Cluster\n  name: a\n  type: STATIC\n"
	cfg, _ = Load([]Input{{Path: "dr.yaml", Data: []byte(dr)}}, "")
	if len(cfg.Clusters) != 1 || cfg.Clusters[0].Name() != "a" {
		t.Errorf("DiscoveryResponse: %d clusters, problems %v", len(cfg.Clusters), cfg.Problems)
	}
}
