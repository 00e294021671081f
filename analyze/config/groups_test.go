package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestLoadGroups: each bootstrap is its own configuration, the loose xDS
// files of one directory form one, and merge makes one of everything.
func TestLoadGroups(t *testing.T) {
	in := []Input{{Path: "../../fixtures/inputs/groups"}}
	cfgs, err := LoadGroups(in, "", false)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, c := range cfgs {
		got = append(got, c.ClusterNames())
		for _, p := range c.Problems {
			t.Errorf("unexpected problem %s", p.Error())
		}
	}
	want := [][]string{{"web"}, {"web"}, {"api"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("groups = %v, want %v", got, want)
	}
	if a := cfgs[2].Cluster("api"); !a.FromEDS || len(a.Assignment.GetEndpoints()[0].GetLbEndpoints()) != 2 {
		t.Errorf("api is not joined to its assignment in the other file of its directory")
	}
	if cfgs[0].Sources != cfgs[2].Sources {
		t.Errorf("groups do not share Sources")
	}

	merged, _ := LoadGroups(in, "", true)
	if len(merged) != 1 || !reflect.DeepEqual(merged[0].ClusterNames(), []string{"web", "api"}) {
		t.Fatalf("merge: %d configs", len(merged))
	}
	dups := 0
	for _, p := range merged[0].Problems {
		if p.Code == CodeDuplicateName {
			dups++
		}
	}
	if dups != 1 {
		t.Errorf("merge: %d duplicate-name problems, want 1 (web)", dups)
	}
}

// TestEgctlGateways: each gateway of egctl's output is its own
// configuration (one Envoy each), read from the one file.
func TestEgctlGateways(t *testing.T) {
	cfgs, err := LoadGroups([]Input{{Path: "../../fixtures/inputs/egctl-translate.yaml"}}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 2 {
		t.Fatalf("%d configurations, want 2", len(cfgs))
	}
	for i, want := range []string{"10.8.0.1", "10.8.1.1"} {
		cl := cfgs[i].Cluster("httproute/default/web/rule/0")
		if cl == nil {
			t.Fatalf("gateway %d: no cluster", i)
		}
		got := cl.Assignment.GetEndpoints()[0].GetLbEndpoints()[0].GetEndpoint().GetAddress().GetSocketAddress().GetAddress()
		if got != want {
			t.Errorf("gateway %d: host %s, want %s", i, got, want)
		}
	}
	// Merged (explain of the file), the gateways are read in file order:
	// the second gateway's cluster is the later definition and replaces
	// the first (a gateway's lone dump section is not joined with other
	// files' sections, sections.go).
	merged, err := LoadGroups([]Input{{Path: "../../fixtures/inputs/egctl-translate.yaml"}}, "", true)
	if err != nil || len(merged) != 1 {
		t.Fatalf("merged: %d configurations, %v", len(merged), err)
	}
	cl := merged[0].Cluster("httproute/default/web/rule/0")
	if got := cl.Assignment.GetEndpoints()[0].GetLbEndpoints()[0].GetEndpoint().GetAddress().GetSocketAddress().GetAddress(); got != "10.8.1.1" {
		t.Errorf("merged: host %s, want the later gateway's 10.8.1.1", got)
	}
	for _, p := range merged[0].Problems {
		if p.Code == CodeDuplicateName && p.Pos.Line != 26 {
			t.Errorf("merged: duplicate reported at line %d, want 26 (the later definition): %s", p.Pos.Line, p.Error())
		}
	}
}

// TestV2alphaListeners: an old dump's dynamic_active_listeners are read
// as active listeners, with their inline routes.
func TestV2alphaListeners(t *testing.T) {
	cfg, err := Load([]Input{{Path: "../../fixtures/inputs/v2alpha-dump.json"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Listeners) != 1 || cfg.Listeners[0].GetName() != "0.0.0.0_9080" {
		t.Fatalf("listeners %v", cfg.Listeners)
	}
	if len(cfg.Routes) != 1 || cfg.Routes[0].GetName() != "ratings" {
		t.Fatalf("routes %v", cfg.Routes)
	}
	for _, p := range cfg.Problems {
		if p.Code == CodeUnknownField {
			t.Errorf("unexpected %s", p.Error())
		}
	}
}

// A ClusterLoadAssignment with an empty endpoints list (a service scaled
// to zero) is an assignment, not a map of resource kinds.
func TestEmptyAssignmentIsNotAResourceMap(t *testing.T) {
	for _, doc := range []string{"cluster_name: web\nendpoints: []\n", `{"clusterName": "web", "endpoints": []}`} {
		cfg, _ := LoadBytes("cla.yaml", []byte(doc), "")
		if len(cfg.Assignments) != 1 || len(cfg.Problems) != 0 {
			t.Errorf("%q: %d assignments, problems %v", doc, len(cfg.Assignments), cfg.Problems)
		}
	}
}

// TestEgctlRepeatRereadAsItsGateway: a repeat's consequence is found by
// reading each gateway's lone dump section as a dump of its own, as the
// real read does. Merged, the second gateway's cluster replaces the
// first's, so the first gateway's repeated lbPolicy changes nothing; alone,
// it changes the cluster's lb_policy.
func TestEgctlRepeatRereadAsItsGateway(t *testing.T) {
	data, err := os.ReadFile("../../fixtures/inputs/egctl-translate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "        lbPolicy: RING_HASH\n", "        lbPolicy: RANDOM\n        lbPolicy: RING_HASH\n", 1)
	in := []Input{{Path: "egctl.yaml", Data: []byte(text)}}
	lbPolicy := func(cfg *Config) Problem {
		for _, p := range cfg.Problems {
			if p.Code == CodeDuplicateKey {
				return p
			}
		}
		t.Fatal("no duplicate-key problem")
		return Problem{}
	}
	merged, err := LoadGroups(in, "", true)
	if err != nil || len(merged) != 1 {
		t.Fatalf("merged: %d configurations, %v", len(merged), err)
	}
	if p := lbPolicy(merged[0]); p.Severity != SevInfo || !strings.HasSuffix(p.Msg, "no cluster, endpoint or route lbctl reports on would differ") {
		t.Errorf("merged: %v %s", p.Severity, p.Msg)
	}
	each, err := LoadGroups(in, "", false)
	if err != nil || len(each) != 2 {
		t.Fatalf("%d configurations, %v", len(each), err)
	}
	if p := lbPolicy(each[0]); p.Severity != SevWarning || !strings.HasSuffix(p.Msg, `would change cluster "httproute/default/web/rule/0" (lb_policy)`) {
		t.Errorf("first gateway: %v %s", p.Severity, p.Msg)
	}
}
