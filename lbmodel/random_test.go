package lbmodel

import (
	"math"
	"testing"
)

// RandomLoadBalancer picks hosts[r % n] from HostSet::healthyHosts(), which
// is in configuration order, not locality order. P0: 4 healthy of 8 hosts
// (health 140*4/8 = 70), P1: 1 healthy host (30). Given h = r%100+1 in
// 1..70, a = r%100 is in 0..69 and r%4 ≡ a (mod 4): residues 0 and 1 occur
// 18 times, 2 and 3 17 times, so the first two healthy hosts in config order
// get 18% and the last two 17%, whatever their localities.
func TestRandomConfigOrderNotLocalityOrder(t *testing.T) {
	zb, za := Locality{Zone: "b"}, Locality{Zone: "a"}
	var hosts []Host
	for i, z := range []Locality{zb, zb, za, za} {
		hosts = append(hosts, Host{Address: "h" + string(rune('0'+i)), Locality: z, Weight: 1, Status: StatusHealthy})
	}
	for range 4 {
		hosts = append(hosts, Host{Address: "down", Locality: za, Weight: 1, Status: StatusUnhealthy})
	}
	hosts = append(hosts, Host{Address: "p1", Priority: 1, Weight: 1, Status: StatusHealthy})
	s, err := ClusterShares(ClusterInput{Hosts: hosts, PanicThreshold: 50, LB: HostLB{Policy: PolicyRandom}})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.18, 0.18, 0.17, 0.17, 0, 0, 0, 0, 0.30}
	for i, w := range want {
		if math.Abs(s.Hosts[i]-w) > 1e-15 {
			t.Errorf("host %d (%s): share %v, want %v", i, hosts[i].Address, s.Hosts[i], w)
		}
	}
}

// RandomLoadBalancerTest.Normal (random_lb_test.cc): with two hosts,
// random 2 picks host 0 and random 3 picks host 1: hosts[r % n].
func TestRandomSharesGivenResidues(t *testing.T) {
	// n = 3 shares no factor with 100: uniform over any bucket.
	for _, x := range RandomSharesGiven(3, Bucket{1, 70}) {
		if math.Abs(x-1.0/3) > 1e-15 {
			t.Fatalf("n=3: %v", x)
		}
	}
	// n = 5, bucket 1..7: a in 0..6, g = 5: residues 0,1 twice, 2..4 once.
	got := RandomSharesGiven(5, Bucket{1, 7})
	want := []float64{2.0 / 7, 2.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("n=5 host %d: %v want %v", i, got[i], want[i])
		}
	}
	if s := RandomSharesGiven(0, FullBucket); len(s) != 0 {
		t.Error("n=0 gave shares")
	}
}
