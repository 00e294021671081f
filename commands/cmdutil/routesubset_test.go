package cmdutil

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

func loadRouteSubset(t *testing.T) *config.Config {
	t.Helper()
	data, err := os.ReadFile("testdata/route-subset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadBytes("route-subset.yaml", data, "")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func routeHosts(t *testing.T, cfg *config.Config, req route.Request, opt model.Options) (*route.Report, map[string]float64) {
	t.Helper()
	if req.Authority == "" {
		req.Authority = "x"
	}
	r, err := route.Build(cfg, req, route.Options{}, RouteBalancers(cfg, opt))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, h := range r.Hosts {
		out[h.Cluster+"/"+h.Address] += h.Share
	}
	return r, out
}

func sameShares(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-9 {
			t.Errorf("%s: %s share %.10g, want %.10g", what, k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok && g != 0 {
			t.Errorf("%s: unexpected host %s with share %.10g", what, k, g)
		}
	}
}

// TestRouteSubsetShares: hand-derived shares inside subsets. The subset's
// child load balancer runs over the subset's hosts alone
// (SubsetLoadBalancer::PrioritySubsetImpl, HostSubsetImpl::update), so its
// priority health, panic and weights are the subset's.
func TestRouteSubsetShares(t *testing.T) {
	cfg := loadRouteSubset(t)
	cases := []struct {
		path string
		want map[string]float64
	}{
		// v2: P0 holds 10.0.0.1 (w1), .2 (w3), .3 (unhealthy): 2 of 3
		// healthy, health floor(140*2/3) = 93; P1's one host is healthy
		// (100), so P0 gets 93 and P1 7. P0's healthy hosts share by
		// weight: 1/4 and 3/4 of 93%.
		{"/v2", map[string]float64{"v/10.0.0.1:80": 0.93 * 0.25, "v/10.0.0.2:80": 0.93 * 0.75, "v/10.0.1.1:80": 0.07}},
		// The same subset behind a 60/40 weighted split.
		{"/split", map[string]float64{"v/10.0.0.1:80": 0.6 * 0.93 * 0.25, "v/10.0.0.2:80": 0.6 * 0.93 * 0.75, "v/10.0.1.1:80": 0.6 * 0.07, "plain/10.5.0.1:80": 0.4}},
		// v3: 1 of 4 healthy (25% < the 50% threshold): the subset's P0 is
		// in panic, so all four hosts share by weight 1:2:1:4.
		{"/v3", map[string]float64{"v/10.0.0.6:80": 1.0 / 8, "v/10.0.0.7:80": 2.0 / 8, "v/10.0.0.8:80": 1.0 / 8, "v/10.0.0.9:80": 4.0 / 8}},
		// No subset for v9: DEFAULT_SUBSET {version: v1}: weights 2 and 1.
		{"/v9", map[string]float64{"v/10.0.0.4:80": 2.0 / 3, "v/10.0.0.5:80": 1.0 / 3}},
		// {stage: test} has no subset and its selector says NO_FALLBACK.
		{"/stage", map[string]float64{}},
		// {stage, version} has no subset; KEYS_SUBSET [version] finds v2.
		{"/keys", map[string]float64{"v/10.0.0.1:80": 0.93 * 0.25, "v/10.0.0.2:80": 0.93 * 0.75, "v/10.0.1.1:80": 0.07}},
		// ANY_ENDPOINT: the whole cluster, 2 of 3 healthy (not in panic):
		// the healthy ones by weight 1:4.
		{"/any", map[string]float64{"any/10.1.0.1:80": 0.2, "any/10.1.0.3:80": 0.8}},
		// A single-host subset returns its host, health unchecked.
		{"/single", map[string]float64{"any/10.1.0.2:80": 1}},
		// The default fallback_policy NO_FALLBACK: no host.
		{"/none", map[string]float64{}},
		// locality_weight_aware with scale_locality_weight: z1's weight 80
		// scaled by 1 of its 2 hosts is 40, z2's 20 by 1 of 4 is 5
		// (determineLocalityWeights): 40/45 and 5/45.
		{"/zones", map[string]float64{"zones/10.3.1.1:80": 40.0 / 45, "zones/10.3.2.1:80": 5.0 / 45}},
		// list_as_any: 10.8.0.1's [v1, v2] puts it in the v2 subset too;
		// weights 3 and 1.
		{"/lists", map[string]float64{"lists/10.8.0.1:80": 0.75, "lists/10.8.0.2:80": 0.25}},
		// fail: no subset for v9, so DEFAULT_SUBSET {version: v1}. With
		// overprovisioning 100 its P0 (1 of 4 healthy: 25, panic) and P1
		// (1 of 2: 50) make a total of 75: loads 33+1 and 66. With
		// fail_traffic_on_panic P0's 34% find no host in that pool and go on
		// to panic_mode_any (chooseHostIteration): the whole cluster, P0 3
		// of 6 healthy (50), P1 1 of 2 (50), no panic at a total of 100.
		{"/fail", map[string]float64{"fail/10.6.1.1:80": 0.66 + 0.34*0.5,
			"fail/10.6.0.1:80": 0.34 * 0.5 / 3, "fail/10.6.0.5:80": 0.34 * 0.5 / 3, "fail/10.6.0.6:80": 0.34 * 0.5 / 3}},
	}
	for _, c := range cases {
		_, got := routeHosts(t, cfg, route.Request{Path: c.path}, model.Options{})
		sameShares(t, c.path, got, c.want)
	}
}

// TestRouteSubsetWhatIf: --set-health acts inside the subset. v/0=1/9
// leaves only P0's first host (10.0.0.1) healthy: the v2 subset's P0 has
// 1 of 3 healthy, health floor(140/3) = 46, so P1 gets 54; the total
// availability is 100, so no priority panics (recalculatePerPriorityPanic)
// and P0's 46 all goes to its one healthy host.
func TestRouteSubsetWhatIf(t *testing.T) {
	cfg := loadRouteSubset(t)
	o, err := model.ParseHealthOverride("v/0=1/9")
	if err != nil {
		t.Fatal(err)
	}
	_, got := routeHosts(t, cfg, route.Request{Path: "/v2"}, model.Options{SetHealth: []model.HealthOverride{o}})
	sameShares(t, "/v2 with v/0=1/9", got, map[string]float64{
		"v/10.0.0.1:80": 0.46, "v/10.0.1.1:80": 0.54})
	// v/0=0/9 leaves the subset's P0 with no healthy host: health 0, P1
	// takes everything.
	o, err = model.ParseHealthOverride("v/0=0/9")
	if err != nil {
		t.Fatal(err)
	}
	_, got = routeHosts(t, cfg, route.Request{Path: "/v2"}, model.Options{SetHealth: []model.HealthOverride{o}})
	sameShares(t, "/v2 with v/0=0/9", got, map[string]float64{"v/10.0.1.1:80": 1})
}

// TestRouteSubsetHash: with a hash the ring hash subset answers with the
// one host its own ring maps the request to, the host lbctl hash finds in
// a plain cluster of the subset's hosts (ringv2).
func TestRouteSubsetHash(t *testing.T) {
	cfg := loadRouteSubset(t)
	for _, user := range []string{"alice", "bob", "carol", "dave", "erin", "frank"} {
		req := route.Request{Path: "/ring", Headers: [][2]string{{"x-user", user}}}
		r, got := routeHosts(t, cfg, req, model.Options{})
		rep, err := hashing.Build(cfg, cfg.Cluster("ringv2"), hashing.HashOptions{Route: "ring", Request: &hashing.HashRequest{Headers: req.Headers}})
		if err != nil {
			t.Fatal(err)
		}
		want := *rep.Lookups[0].Host
		if r.Hash == nil || r.Hash.Host != want || r.Hash.Hash != "0x"+strings.Repeat("0", 16-len(hexOf(hash.XXHash64(user))))+hexOf(hash.XXHash64(user)) {
			t.Errorf("%s: hash pick %+v, want host %s", user, r.Hash, want)
		}
		sameShares(t, "/ring "+user, got, map[string]float64{"ringsub/" + want: 1})
	}
	// Without the header the subset's ring spreads the requests as the
	// plain cluster's ring does.
	_, got := routeHosts(t, cfg, route.Request{Path: "/ring"}, model.Options{})
	ex, err := RouteBalancers(cfg, model.Options{}).Hosts("ringv2")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, h := range ex.Hosts {
		want["ringsub/"+h.Address] = h.Share
	}
	sameShares(t, "/ring without a hash", got, want)
}

// TestRouteSubsetRingLocalities: a ring hash subset with
// locality_weight_aware keeps the weight of its cluster's locality z3,
// which has no subset host, in the ring's locality sum: its hosts get 1/4
// of the normalized weight each, so the ring holds 512 entries, not 1024,
// exactly as ringz's (z3's one host unhealthy) does.
func TestRouteSubsetRingLocalities(t *testing.T) {
	cfg := loadRouteSubset(t)
	hr, err := hashing.Build(cfg, cfg.Cluster("ringz"), hashing.HashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if hr.RingSize == nil || *hr.RingSize != 512 {
		t.Fatalf("ringz ring size %v, want 512", hr.RingSize)
	}
	for i := 0; i < 40; i++ {
		user := fmt.Sprintf("u%d", i)
		req := route.Request{Path: "/lring", Headers: [][2]string{{"x-user", user}}}
		r, _ := routeHosts(t, cfg, req, model.Options{})
		rep, err := hashing.Build(cfg, cfg.Cluster("ringz"), hashing.HashOptions{Keys: []string{user}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Hash == nil || r.Hash.Host != *rep.Lookups[0].Host {
			t.Errorf("%s: subset pick %+v, ringz's %s", user, r.Hash, *rep.Lookups[0].Host)
		}
	}
}

func hexOf(v uint64) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}

// TestRouteUseHashPolicy: use_hash_policy picks the weighted cluster by
// the route's hash of the request, modulo the total weight
// (pickWeightedCluster); without a hash the random value picks.
func TestRouteUseHashPolicy(t *testing.T) {
	cfg := loadRouteSubset(t)
	for _, user := range []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace"} {
		r, _ := routeHosts(t, cfg, route.Request{Path: "/byhash", Headers: [][2]string{{"x-user", user}}}, model.Options{})
		want := "plain"
		if hash.XXHash64(user)%10 >= 3 {
			want = "v"
		}
		if r.Cluster != want {
			t.Errorf("%s: hash %d %% 10: cluster %q, want %q", user, hash.XXHash64(user), r.Cluster, want)
		}
	}
	rnd := uint64(2)
	r, _ := routeHosts(t, cfg, route.Request{Path: "/byhash", RandomValue: &rnd}, model.Options{})
	if r.Cluster != "plain" {
		t.Errorf("no hash, random value 2: cluster %q, want plain", r.Cluster)
	}
	r, _ = routeHosts(t, cfg, route.Request{Path: "/byhash"}, model.Options{})
	if r.Cluster != "" || len(r.Clusters) != 2 {
		t.Errorf("no hash, no random value: want shares over both clusters, got %q %+v", r.Cluster, r.Clusters)
	}
}
