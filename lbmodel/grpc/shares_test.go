package grpc

import (
	"fmt"
	"math"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// grpc.md §5: locality weights honoured, not scaled by health; unhealthy
// and DEGRADED endpoints dropped; weightless locality dropped.
func TestGRPCPrioritySharesWrrLocality(t *testing.T) {
	a, b, c := lbmodel.Locality{Zone: "a"}, lbmodel.Locality{Zone: "b"}, lbmodel.Locality{Zone: "c"}
	hosts := []lbmodel.Host{
		{Address: "1", Locality: a, LocalityWeight: 1, Status: lbmodel.StatusHealthy, Weight: 5},
		{Address: "2", Locality: a, LocalityWeight: 1, Status: lbmodel.StatusUnhealthy},
		{Address: "3", Locality: b, LocalityWeight: 3, Status: lbmodel.StatusUnknown},
		{Address: "4", Locality: b, LocalityWeight: 3, Status: lbmodel.StatusHealthy, Weight: 100},
		{Address: "5", Locality: b, LocalityWeight: 3, Status: lbmodel.StatusDegraded},
		{Address: "6", Locality: c, LocalityWeight: 0, Status: lbmodel.StatusHealthy},
	}
	p, _ := SelectPolicy(PolicyInput{}, GoImpl)
	got, err := PriorityShares(hosts, p)
	if err != nil {
		t.Fatal(err)
	}
	// a keeps its full weight 1/4 with one of two endpoints up (Envoy
	// would scale it by min(100, 1.4*50%)); endpoint weights ignored.
	want := []float64{0.25, 0, 0.375, 0.375, 0, 0}
	for i, w := range want {
		if !near(got.Hosts[i].Share, w) {
			t.Errorf("host %s share %v, want %v", hosts[i].Address, got.Hosts[i].Share, w)
		}
	}
	if len(got.Localities) != 2 || !near(got.Localities[0].Share, 0.25) || len(got.Notes) == 0 {
		t.Errorf("localities %+v notes %v", got.Localities, got.Notes)
	}
}

// grpc.md §3.4: bare round_robin has no locality level.
func TestGRPCPrioritySharesFlat(t *testing.T) {
	hosts := []lbmodel.Host{
		{Address: "1", Locality: lbmodel.Locality{Zone: "a"}, LocalityWeight: 1},
		{Address: "2", Locality: lbmodel.Locality{Zone: "b"}, LocalityWeight: 9},
		{Address: "3", Locality: lbmodel.Locality{Zone: "b"}, LocalityWeight: 9},
	}
	got, _ := PriorityShares(hosts, Policy{Name: RoundRobin})
	for _, h := range got.Hosts {
		if !near(h.Share, 1.0/3) {
			t.Errorf("%s share %v", h.Address, h.Share)
		}
	}
	got, _ = PriorityShares(hosts, Policy{Name: PickFirst})
	if got.Hosts[0].Share != 1 || got.Hosts[1].Share != 0 {
		t.Errorf("pick_first %+v", got.Hosts)
	}
	got, _ = PriorityShares([]lbmodel.Host{{Address: "x", LocalityWeight: 1, Status: lbmodel.StatusUnhealthy}}, Policy{Name: RoundRobin})
	if got.Hosts[0].Share != 0 || len(got.Notes) == 0 {
		t.Errorf("no usable endpoint: %+v", got)
	}
	if got, err := PriorityShares(nil, Policy{Name: RingHash, MinRingSize: 1024, MaxRingSize: 4096}); err != nil || len(got.Hosts) != 0 {
		t.Errorf("zero hosts: %+v %v", got, err)
	}
}

// A113 UQ1.31 weights, hand-derived: localities 1 and 3, two endpoints
// each: 1<<31/4 = 536870912, 3<<31/4 = 1610612736, 1<<31/2 = 1073741824;
// products >> 31 = 268435456 and 805306368. The unhealthy endpoint still
// counts in its locality's endpoint sum but gets weight 0.
func TestGRPCEndpointWeights(t *testing.T) {
	a, b := lbmodel.Locality{Zone: "a"}, lbmodel.Locality{Zone: "b"}
	hosts := []lbmodel.Host{
		{Locality: a, LocalityWeight: 1, Weight: 1},
		{Locality: a, LocalityWeight: 1, Weight: 1, Status: lbmodel.StatusUnhealthy},
		{Locality: b, LocalityWeight: 3, Weight: 1},
		{Locality: b, LocalityWeight: 3, Weight: 1},
	}
	got := EndpointWeights(hosts)
	want := []uint32{268435456, 0, 805306368, 805306368}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("weights %v, want %v", got, want)
			break
		}
	}
}

func TestGRPCRing(t *testing.T) {
	// Four equal endpoints, min 1024: w_min = 0.25, scale = 1024 exactly.
	eps := []RingEndpoint{{"d", 1}, {"c", 1}, {"b", 1}, {"a", 1}}
	size, counts, err := Ring(eps, 1024, 4096)
	if err != nil || size != 1024 || counts[0] != 256 || counts[3] != 256 {
		t.Errorf("size %d counts %v err %v", size, counts, err)
	}
	// grpc.md §7: 5000 equal endpoints, ring capped at 4096: scale =
	// min(ceil(1024/5000)*5000, 4096) = 4096, so 904 endpoints get no entry.
	many := make([]RingEndpoint, 5000)
	for i := range many {
		many[i] = RingEndpoint{HashKey: fmt.Sprintf("10.0.%d.%d:80", i/256, i%256), Weight: 1}
	}
	size, counts, _ = Ring(many, 1024, 4096)
	zero, total := 0, 0
	for _, c := range counts {
		total += c
		if c == 0 {
			zero++
		}
	}
	if size != 4096 || total != 4096 || zero != 904 {
		t.Errorf("size %d total %d zero %d", size, total, zero)
	}
	// ring_test.go TestRingNew: {a:3, b:3, c:4} within [min, max], shares ~ weights.
	for _, mn := range []uint64{3, 4, 6, 8} {
		for _, mx := range []uint64{20, 8} {
			size, counts, _ := Ring([]RingEndpoint{{"a", 3}, {"b", 3}, {"c", 4}}, mn, mx)
			n := counts[0] + counts[1] + counts[2]
			if n < int(mn) || n > int(mx) || size < int(mn) {
				t.Errorf("min %d max %d: size %d entries %v", mn, mx, size, counts)
			}
		}
	}
	for _, bad := range [][]RingEndpoint{nil, {{"a", 0}}} {
		if _, _, err := Ring(bad, 1024, 4096); err == nil {
			t.Errorf("%v: want error", bad)
		}
	}
	if _, _, err := Ring(eps, 0, 4096); err == nil {
		t.Error("min 0: want error")
	}
}

// Ring shares through PriorityShares, using the A76 hash_key.
func TestGRPCPrioritySharesRing(t *testing.T) {
	hosts := []lbmodel.Host{
		{Address: "10.0.0.1:80", LocalityWeight: 1, Metadata: map[string]any{"hash_key": "z"}},
		{Address: "10.0.0.2:80", LocalityWeight: 1},
		{Address: "10.0.0.3:80", LocalityWeight: 1},
		{Address: "10.0.0.4:80", LocalityWeight: 1},
	}
	got, err := PriorityShares(hosts, Policy{Name: RingHash, MinRingSize: 1024, MaxRingSize: 4096})
	if err != nil || got.RingSize != 1024 {
		t.Fatalf("%+v %v", got, err)
	}
	for _, h := range got.Hosts {
		if h.Entries != 256 || !near(h.Share, 0.25) || h.Weight != 1<<29 {
			t.Errorf("%+v", h)
		}
	}
}
