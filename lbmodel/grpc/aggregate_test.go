package grpc

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func eds(name string) Cluster { return Cluster{Name: name, Kind: ClusterEDS} }

func agg(name string, children ...string) Cluster {
	return Cluster{Name: name, Kind: ClusterAggregate, Children: children}
}

func graph(cs ...Cluster) map[string]Cluster {
	m := map[string]Cluster{}
	for _, c := range cs {
		m[c.Name] = c
	}
	return m
}

// chain builds root -> root-1 -> ... -> root-n (aggregates), the last a leaf,
// as grpc-go's TestAggregatedClusterFailure_ExceedsMaxStackDepth does.
func chain(n int) map[string]Cluster {
	m := map[string]Cluster{}
	name := func(i int) string {
		if i == 0 {
			return "c"
		}
		return fmt.Sprintf("c-%d", i)
	}
	for i := 0; i < n; i++ {
		m[name(i)] = agg(name(i), name(i+1))
	}
	m[name(n)] = eds(name(n))
	return m
}

func TestResolveGRPCAggregate(t *testing.T) {
	tests := []struct {
		name             string // grpc-go test or gRFC section
		g                map[string]Cluster
		goLeaves, core   []string
		goFail, coreFail string
		goPending        bool
		cycles, dups     int
		coreSkipped      []string
	}{
		{name: "cdsbalancer/TestAggregatedClusterSuccess_IgnoreDups A->[B,C] B->[C,D]",
			g:        graph(agg("A", "B", "C"), agg("B", "C", "D"), eds("C"), eds("D")),
			goLeaves: []string{"C", "D"}, core: []string{"C", "D"}, dups: 1},
		{name: "cdsbalancer/TestAggregatedClusterSuccess_DiamondDependency A->[B,C] B->D C->D",
			g:        graph(agg("A", "B", "C"), agg("B", "D"), agg("C", "D"), eds("D")),
			goLeaves: []string{"D"}, core: []string{"D"}, dups: 1},
		{name: "cdsbalancer/TestAggregatedCluster_NodeChildOfItself A->[A]",
			g:      graph(agg("A", "A")),
			goFail: "aggregate cluster graph has no leaf clusters", coreFail: "aggregate cluster graph has no leaf clusters", cycles: 1},
		{name: "cdsbalancer/TestAggregatedCluster_CycleWithNoLeafNode A->B B->A",
			g:      graph(agg("A", "B"), agg("B", "A")),
			goFail: "aggregate cluster graph has no leaf clusters", coreFail: "aggregate cluster graph has no leaf clusters", cycles: 1},
		{name: "cdsbalancer/TestAggregatedCluster_CycleWithLeafNode A->[B,C] B->A",
			g:        graph(agg("A", "B", "C"), agg("B", "A"), eds("C")),
			goLeaves: []string{"C"}, core: []string{"C"}, cycles: 1},
		{name: "cdsbalancer/TestAggregatedClusterFailure_ExceedsMaxStackDepth 16 aggregates",
			g:      chain(16),
			goFail: "aggregate cluster graph exceeds max depth (16)", coreFail: "aggregate cluster graph exceeds max depth (16)"},
		{name: "cdsbalancer/TestAggregatedClusterFailure_ExceedsMaxStackDepth 15 aggregates works",
			g:        chain(15),
			goLeaves: []string{"c-15"}, core: []string{"c-15"}},
		{name: "grpc.md §2.3 missing child: grpc-go fails, C-core skips (A74)",
			g:      graph(agg("A", "B", "C"), eds("C")),
			goFail: `cluster "B": CDS resource does not exist or was rejected`,
			core:   []string{"C"}, coreSkipped: []string{"B"}},
		{name: "grpc.md §2.3 only child missing: C-core has no leaves",
			g:        graph(agg("A", "B")),
			goFail:   `cluster "B": CDS resource does not exist or was rejected`,
			coreFail: "aggregate cluster graph has no leaf clusters", coreSkipped: []string{"B"}},
		{name: "A74 pending child withholds config",
			g:        graph(agg("A", "B", "C"), Cluster{Name: "B", State: ClusterPending}, eds("C")),
			goLeaves: []string{"C"}, core: []string{"C"}, goPending: true},
		{name: "nested aggregate without leaves is skipped by its parent",
			g:        graph(agg("A", "B", "C"), agg("B", "B"), eds("C")),
			goLeaves: []string{"C"}, core: []string{"C"}, cycles: 1},
		{name: "A37 first occurrence wins: A->[B,C] C->[B,D]",
			g:        graph(agg("A", "B", "C"), eds("B"), agg("C", "B", "D"), eds("D")),
			goLeaves: []string{"B", "D"}, core: []string{"B", "D"}, dups: 1},
		{name: "plain EDS root", g: graph(eds("A")), goLeaves: []string{"A"}, core: []string{"A"}},
		{name: "missing root", g: graph(),
			goFail: `cluster "A": CDS resource does not exist or was rejected`, coreFail: `cluster "A": CDS resource does not exist or was rejected`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := "A"
			if _, ok := tc.g["c"]; ok {
				root = "c"
			}
			got, err := ResolveAggregate(root, tc.g)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Go.Leaves, tc.goLeaves) || got.Go.Failure != tc.goFail || got.Go.Pending != tc.goPending {
				t.Errorf("grpc-go = %+v, want leaves %v failure %q pending %v", got.Go, tc.goLeaves, tc.goFail, tc.goPending)
			}
			if !reflect.DeepEqual(got.Core.Leaves, tc.core) || got.Core.Failure != tc.coreFail || !reflect.DeepEqual(got.Core.Skipped, tc.coreSkipped) {
				t.Errorf("C-core = %+v, want leaves %v failure %q skipped %v", got.Core, tc.core, tc.coreFail, tc.coreSkipped)
			}
			if len(got.Cycles) != tc.cycles || len(got.Duplicates) != tc.dups {
				t.Errorf("cycles %v dups %v, want %d, %d", got.Cycles, got.Duplicates, tc.cycles, tc.dups)
			}
		})
	}
}

func TestResolveGRPCAggregateNotes(t *testing.T) {
	got, _ := ResolveAggregate("A", graph(agg("A", "B", "C"), eds("C")))
	if len(got.Notes) == 0 || !strings.Contains(got.Notes[0].GRPCGo, "cluster fails") || !strings.Contains(got.Notes[0].GRPCCore, "skips [B]") {
		t.Errorf("notes = %+v", got.Notes)
	}
	if _, err := ResolveAggregate("", nil); err == nil {
		t.Error("empty root: want error")
	}
}

// grpc.md §2.4 / A75 "Aggregate Cluster Changes".
func TestGRPCLeafPolicies(t *testing.T) {
	g := graph(agg("A", "B", "C"), eds("B"), eds("C"))
	a := g["A"]
	a.LBPolicy = "ring_hash_experimental"
	g["A"] = a
	b := g["B"]
	b.LBPolicy = "xds_wrr_locality_experimental"
	g["B"] = b
	leaves := []string{"B", "C"}
	if got := LeafPolicies("A", leaves, g, GoImpl, false); got[0].Policy != "ring_hash_experimental" || got[1].From != "A" {
		t.Errorf("grpc-go (pre-A75) = %+v", got)
	}
	if got := LeafPolicies("A", leaves, g, CoreImpl, false); got[0].Policy != "xds_wrr_locality_experimental" || got[1].From != "C" {
		t.Errorf("C-core (A75) = %+v", got)
	}
	if got := LeafPolicies("A", leaves, g, CoreImpl, true); got[0].From != "A" {
		t.Errorf("C-core GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT = %+v", got)
	}
}
