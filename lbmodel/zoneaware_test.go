package lbmodel

import (
	"fmt"
	"testing"
)

// zoneHosts builds healthy hosts from "zone:count" pairs, weight 1.
func zoneHosts(spec ...any) []Host {
	var out []Host
	for i := 0; i < len(spec); i += 2 {
		z, n := spec[i].(string), spec[i+1].(int)
		for j := 0; j < n; j++ {
			out = append(out, Host{Address: fmt.Sprintf("%s%d", z, j), Locality: Locality{Zone: z}, Weight: 1, Status: StatusHealthy})
		}
	}
	return out
}

func zone(z string) Locality { return Locality{Zone: z} }

func minSize(n uint64) ZoneAwareConfig {
	return ZoneAwareConfig{MinClusterSize: n, MinClusterSizeSet: true}
}

func equalU64(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// locality.md §4.9, each row asserted by Envoy's round_robin_lb_test.cc
// zone-aware tests through random thresholds.
func TestZoneAwareEnvoyCases(t *testing.T) {
	cases := []struct {
		name            string
		local, upstream []Host
		node            string
		state           ZoneState
		lptr            uint64
		residual        []uint64
		shares          []float64
	}{
		{"ZoneAwareResidualsMismatched", zoneHosts("A", 2, "B", 2, "C", 1, "D", 1), zoneHosts("A", 1, "C", 3, "D", 3, "E", 1), "A",
			LocalityResidual, 3750, []uint64{0, 2084, 4168, 5418},
			[]float64{0.375, 0.625 * 2084 / 5418, 0.625 * 2084 / 5418, 0.625 * 1250 / 5418}},
		{"ZoneAwareDifferentZoneSize", zoneHosts("B", 1, "A", 1), zoneHosts("B", 1, "A", 1, "C", 1), "B",
			LocalityResidual, 6666, []uint64{0, 0, 3333}, []float64{0.6666, 0, 0.3334}},
		{"ZoneAwareRoutingSmallZone", zoneHosts("A", 1, "B", 1, "C", 1), zoneHosts("A", 1, "B", 2, "C", 2), "A",
			LocalityResidual, 6000, []uint64{0, 667, 1334}, []float64{0.6, 0.2, 0.2}},
		{"NoMatchingZones", zoneHosts("A", 1, "B", 1, "C", 1), zoneHosts("D", 1, "E", 1, "F", 1), "A",
			LocalityResidual, 0, []uint64{3333, 6666, 9999}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"ZoneAwareZonesMismatched", zoneHosts("B", 1, "A", 1), zoneHosts("A", 1, "C", 1), "B",
			LocalityResidual, 0, []uint64{0, 5000}, []float64{0, 1}},
		{"ZoneAwareLoadBalancerTest.SmallCluster", zoneHosts("B", 1, "A", 1, "C", 1), zoneHosts("B", 1, "A", 1, "C", 1), "B",
			LocalityDirect, 0, nil, []float64{1, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			z := ComputeZoneRouting(c.upstream, c.local, zone(c.node), true, minSize(1))
			if z.State != c.state || z.LocalPercentToRoute != c.lptr || !equalU64(z.ResidualCapacity, c.residual) {
				t.Fatalf("state %v lptr %d R %v; want %v %d %v", z.State, z.LocalPercentToRoute, z.ResidualCapacity, c.state, c.lptr, c.residual)
			}
			for i, s := range c.shares {
				if !near(z.Shares[i], s, 1e-12) {
					t.Errorf("locality %v share %v, want %v", z.Localities[i], z.Shares[i], s)
				}
			}
		})
	}
}

// ZoneAwareEmptyLocalities: upstream localities with hosts but none healthy
// have percentages (0,0); the local one among them makes the state Residual
// with local_percent_to_route 0.
func TestZoneAwareEmptyLocalities(t *testing.T) {
	up := zoneHosts("A", 1, "B", 1, "C", 2, "E", 1, "F", 2, "G", 1, "H", 1, "I", 1)
	for i := range up {
		switch up[i].Locality.Zone {
		case "A", "B", "G", "I":
			up[i].Status = StatusUnhealthy
		}
	}
	z := ComputeZoneRouting(up, zoneHosts("A", 1, "C", 1, "D", 1, "F", 1), zone("A"), true, minSize(1))
	want := []uint64{0, 0, 833, 2499, 3332, 3332, 4998, 4998}
	if z.State != LocalityResidual || z.LocalPercentToRoute != 0 || !equalU64(z.ResidualCapacity, want) {
		t.Fatalf("state %v lptr %d R %v", z.State, z.LocalPercentToRoute, z.ResidualCapacity)
	}
	wantShares := []float64{0, 0, 833.0 / 4998, 1666.0 / 4998, 833.0 / 4998, 0, 1666.0 / 4998, 0}
	for i, s := range wantShares {
		if !near(z.Shares[i], s, 1e-12) {
			t.Errorf("%v: %v want %v", z.Localities[i], z.Shares[i], s)
		}
	}
}

// ZoneAwareLoadBalancerTest.LowPrecisionForDistribution: residuals round to
// 0, so cross-zone traffic is uniform over all localities
// (lb_zone_no_capacity_left).
func TestZoneAwareLowPrecision(t *testing.T) {
	local := []Host{}
	for i := 0; i < 45000; i++ {
		local = append(local, Host{Locality: zone("A"), Status: StatusHealthy})
	}
	for i := 0; i < 55000; i++ {
		local = append(local, Host{Locality: zone("B"), Status: StatusHealthy})
	}
	up := []Host{}
	for i := 0; i < 44999; i++ {
		up = append(up, Host{Locality: zone("A"), Status: StatusHealthy})
	}
	for i := 0; i < 55001; i++ {
		up = append(up, Host{Locality: zone("B"), Status: StatusHealthy})
	}
	z := ComputeZoneRouting(up, local, zone("A"), true, ZoneAwareConfig{})
	if z.State != LocalityResidual || z.LocalPercentToRoute != 9997 || !z.NoCapacityLeft {
		t.Fatalf("%+v", z)
	}
	if !near(z.Shares[0], 0.99985, 1e-12) || !near(z.Shares[1], 0.00015, 1e-12) {
		t.Errorf("shares %v", z.Shares)
	}
}

// ZoneAwareUseHostWeight (locality.md §4.6): weight basis makes it Direct,
// count basis Residual 7500 with R = [0, 1667].
func TestZoneAwareHostWeight(t *testing.T) {
	local := []Host{
		{Locality: zone("A"), Weight: 100, Status: StatusHealthy},
		{Locality: zone("A"), Weight: 100, Status: StatusHealthy},
		{Locality: zone("B"), Weight: 200, Status: StatusHealthy},
	}
	up := []Host{
		{Locality: zone("A"), Weight: 100, Status: StatusHealthy},
		{Locality: zone("B"), Weight: 100, Status: StatusHealthy},
	}
	cfg := minSize(1)
	z := ComputeZoneRouting(up, local, zone("A"), true, cfg)
	if z.State != LocalityResidual || z.LocalPercentToRoute != 7500 || !equalU64(z.ResidualCapacity, []uint64{0, 1667}) {
		t.Errorf("count basis: %+v", z)
	}
	cfg.HealthyHostsWeight = true
	z = ComputeZoneRouting(up, local, zone("A"), true, cfg)
	if z.State != LocalityDirect || z.LocalPercent[0] != 5000 || z.UpstreamPercent[0] != 5000 {
		t.Errorf("weight basis: %+v", z)
	}
}

// Modelled on ZoneAwareForceLocalityDirect (hand-derived topology): local
// A2 B1 C1, upstream A1 B1 C1 is Residual; force_local_zone min_size 2
// keeps it Residual (A has 1 healthy host), min_size 1 (the default) makes
// it Direct. force_local_zone also lifts the ≥2 local localities rule.
func TestZoneAwareForceLocalZone(t *testing.T) {
	local, up := zoneHosts("A", 2, "B", 1, "C", 1), zoneHosts("A", 1, "B", 1, "C", 1)
	cfg := minSize(1)
	if z := ComputeZoneRouting(up, local, zone("A"), true, cfg); z.State != LocalityResidual || z.LocalPercentToRoute != 6666 {
		t.Errorf("no force: %+v", z)
	}
	cfg.ForceLocalZone, cfg.ForceLocalZoneMinSize, cfg.ForceLocalZoneMinSizeSet = true, 2, true
	if z := ComputeZoneRouting(up, local, zone("A"), true, cfg); z.State != LocalityResidual {
		t.Errorf("min_size 2: %v", z.State)
	}
	cfg.ForceLocalZoneMinSizeSet = false
	z := ComputeZoneRouting(up, local, zone("A"), true, cfg)
	if z.State != LocalityDirect || z.Shares[0] != 1 || z.Shares[2] != 0 {
		t.Errorf("min_size 1: %+v", z)
	}
	if z := ComputeZoneRouting(up, zoneHosts("A", 3), zone("A"), true, cfg); z.State != LocalityDirect {
		t.Errorf("force with a one-locality local cluster: %+v", z)
	}
}

// earlyExitNonLocalityRouting, in order, with min_cluster_size's default 6.
func TestZoneAwareEarlyExits(t *testing.T) {
	cases := []struct {
		name            string
		local, upstream []Host
		node            Locality
		nodeKnown       bool
		cfg             ZoneAwareConfig
		want            ZoneExit
	}{
		{"upstream one locality", zoneHosts("A", 2, "B", 2), zoneHosts("A", 9), zone("A"), true, minSize(1), ZoneExitUpstreamLocalities},
		{"local one locality", zoneHosts("A", 2), zoneHosts("A", 9, "B", 9), zone("A"), true, minSize(1), ZoneExitLocalLocalities},
		{"local has no host in node locality", zoneHosts("B", 2, "C", 2), zoneHosts("A", 9, "B", 9), zone("A"), true, minSize(1), ZoneExitLocalClusterNotOK},
		{"node locality unknown", zoneHosts("A", 2, "C", 2), zoneHosts("A", 9, "B", 9), Locality{}, false, minSize(1), ZoneExitLocalClusterNotOK},
		{"ZoneAwareLoadBalancerTest.SmallCluster default min 6", zoneHosts("B", 1, "A", 1, "C", 1), zoneHosts("B", 1, "A", 1, "C", 1), zone("B"), true, ZoneAwareConfig{}, ZoneExitClusterTooSmall},
		{"min size counts healthy hosts", zoneHosts("A", 1, "B", 1), append(zoneHosts("A", 3, "B", 2), Host{Locality: zone("B"), Status: StatusUnhealthy}), zone("A"), true, ZoneAwareConfig{}, ZoneExitClusterTooSmall},
		{"equal to min size routes", zoneHosts("A", 1, "B", 1), zoneHosts("A", 3, "B", 3), zone("A"), true, ZoneAwareConfig{}, ZoneExitNone},
	}
	for _, c := range cases {
		z := ComputeZoneRouting(c.upstream, c.local, c.node, c.nodeKnown, c.cfg)
		if z.Exit != c.want || (c.want != ZoneExitNone) != (z.State == NoLocalityRouting) {
			t.Errorf("%s: exit %v state %v, want %v", c.name, z.Exit, z.State, c.want)
		}
	}
}

// convertPercent truncation: 29 → 28, 57 → 56, 58 → 57, 99.9 → 99.
func TestPercentToInt(t *testing.T) {
	for in, want := range map[float64]int{29: 28, 57: 56, 58: 57, 99.9: 99, 100: 100, 150: 100, 0: 0, 50: 50, -3: 0} {
		if got := PercentToInt(in); got != want {
			t.Errorf("PercentToInt(%v) = %d, want %d", in, got, want)
		}
	}
	if got := (ZoneAwareConfig{}).RoutingEnabledPercent(); got != 100 {
		t.Errorf("default routing_enabled %d", got)
	}
}
