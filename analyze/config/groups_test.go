package config

import (
	"reflect"
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
