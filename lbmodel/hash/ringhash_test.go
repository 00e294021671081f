package hash

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

func mustRing(t *testing.T, hosts []lbmodel.Host, opt NormalizeOptions, cfg RingConfig) *Ring {
	t.Helper()
	r, err := BuildRing(mustNormalize(t, hosts, opt), cfg)
	if err != nil {
		t.Fatalf("BuildRing: %v", err)
	}
	return r
}

func ringCfg(minSize, maxSize uint64) RingConfig {
	c := DefaultRingConfig()
	c.MinRingSize = minSize
	if maxSize != 0 {
		c.MaxRingSize = maxSize
	}
	return c
}

// checkRing asserts the sorted ring as (hash, host index) pairs.
func checkRing(t *testing.T, r *Ring, want []RingEntry) {
	t.Helper()
	if got := ringEntries(r); !slices.Equal(got, want) {
		t.Errorf("ring =\n%v\nwant\n%v", got, want)
	}
}

func checkStats(t *testing.T, r *Ring, size, minH, maxH uint64) {
	t.Helper()
	if r.Size != size || r.MinHashesPerHost != minH || r.MaxHashesPerHost != maxH {
		t.Errorf("size/min/max = %d/%d/%d, want %d/%d/%d", r.Size, r.MinHashesPerHost, r.MaxHashesPerHost, size, minH, maxH)
	}
}

func checkPicks(t *testing.T, r *Ring, want map[uint64]int) {
	t.Helper()
	for h, w := range want {
		if got, ok := r.Pick(h, 0); !ok || got != w {
			t.Errorf("pick(%d) = %d,%v want %d", h, got, ok, w)
		}
	}
}

// basicRing is the ring asserted by RingHashLoadBalancerTest.Basic (ports 90..95, min 12).
var basicRing = []RingEntry{
	{833437586790550860, 4}, {928266305478181108, 2}, {1033482794131418490, 0},
	{3551244743356806947, 5}, {3851675632748031481, 3}, {5583722120771150861, 1},
	{6311230543546372928, 1}, {7700377290971790572, 3}, {13144177310400110813, 5},
	{13444792449719432967, 2}, {15516499411664133160, 4}, {16117243373044804889, 0},
}

func TestRingEnvoyBasic(t *testing.T) {
	hosts := ports(90, 91, 92, 93, 94, 95)
	r := mustRing(t, hosts, NormalizeOptions{}, ringCfg(12, 0))
	checkStats(t, r, 12, 2, 2)
	checkRing(t, r, basicRing)
	checkPicks(t, r, map[uint64]int{
		0: 4, math.MaxUint64: 4, 3551244743356806947: 5, 3551244743356806948: 3,
		16117243373044804880: 0,
	})
	// Panic: healthy hosts cleared, the ring is built from all hosts.
	for i := range hosts {
		hosts[i].Status = lbmodel.StatusUnhealthy
	}
	if nw := mustNormalize(t, hosts, NormalizeOptions{}); len(nw.Hosts) != 0 {
		t.Fatalf("unhealthy hosts must not be used outside panic")
	}
	r = mustRing(t, hosts, NormalizeOptions{Panic: true}, ringCfg(12, 0))
	checkPicks(t, r, map[uint64]int{0: 4})
}

func TestRingEnvoyBasicWithRetryHostPredicate(t *testing.T) {
	r := mustRing(t, ports(90, 91, 92, 93, 94, 95), NormalizeOptions{}, ringCfg(12, 0))
	never := func(int) bool { return false }
	always := func(int) bool { return true }
	for _, c := range []struct {
		retries uint32
		reject  func(int) bool
		want    int
	}{
		{0, never, 4},
		{2, never, 4},
		{2, func(h int) bool { return h == 4 }, 2},
		{2, always, 0},  // exhausted retries return the last checked host
		{13, always, 2}, // retries wrap around the ring
	} {
		if got, _ := retryPick(r.Pick, 0, c.retries, c.reject); got != c.want {
			t.Errorf("retries %d: got %d want %d", c.retries, got, c.want)
		}
	}
}

func TestRingEnvoyBasicWithMurmur2(t *testing.T) {
	cfg := ringCfg(12, 0)
	cfg.HashFunction = HashMurmur2
	r := mustRing(t, ports(80, 81, 82, 83, 84, 85), NormalizeOptions{}, cfg)
	checkStats(t, r, 12, 2, 2)
	checkRing(t, r, []RingEntry{
		{1358027074129602068, 5}, {4361834613929391114, 3}, {7224494972555149682, 4},
		{7701421856454313576, 1}, {8649315368077433379, 2}, {8739448859063030639, 4},
		{9887544217113020895, 1}, {10150910876324007731, 2}, {15168472011420622455, 3},
		{15427156902705414897, 0}, {16375050414328759093, 5}, {17613279263364193813, 0},
	})
	checkPicks(t, r, map[uint64]int{
		0: 5, math.MaxUint64: 5, 1358027074129602068: 5, 1358027074129602069: 3,
		10150910876324007730: 2,
	})
}

// hostnameRing is asserted by BasicWithHostname, BasicWithMetadataHashKey and
// BasicWithDoundedLoad (keys "90".."95").
var hostnameRing = []RingEntry{
	{1975508444536362413, 5}, {2376063919839173711, 5}, {2386806903309390596, 3},
	{6749904478991551885, 4}, {6803900775736438537, 3}, {7225015537174310577, 2},
	{8787465352164086522, 0}, {11282020843382717940, 2}, {13723418369486627818, 1},
	{13776502110861797421, 0}, {14338313586354474791, 1}, {15364271037087512980, 4},
}

func TestRingEnvoyHostnameAndMetadataHashKey(t *testing.T) {
	named := ports(90, 91, 92, 93, 94, 95)
	keyed := ports(90, 91, 92, 93, 94, 95)
	for i := range named {
		named[i].Hostname = fmt.Sprint(90 + i)
		keyed[i].Hostname = "ignored-" + fmt.Sprint(i)
		keyed[i].Metadata = map[string]any{"hash_key": fmt.Sprint(90 + i)}
	}
	cfg := ringCfg(12, 0)
	cfg.UseHostname = true
	for name, hosts := range map[string][]lbmodel.Host{"BasicWithHostname": named, "BasicWithMetadataHashKey": keyed} {
		t.Run(name, func(t *testing.T) {
			r := mustRing(t, hosts, NormalizeOptions{}, cfg)
			checkStats(t, r, 12, 2, 2)
			checkRing(t, r, hostnameRing)
			checkPicks(t, r, map[uint64]int{0: 5, math.MaxUint64: 5, 7225015537174310577: 2, 6803900775736438537: 3})
		})
	}
}

func TestRingEnvoyUnevenHosts(t *testing.T) {
	r := mustRing(t, ports(80, 81), NormalizeOptions{}, ringCfg(3, 0))
	checkStats(t, r, 4, 2, 2)
	checkRing(t, r, []RingEntry{{5454692015285649509, 0}, {7859399908942313493, 1}, {13838424394637650569, 0}, {16064866803292627174, 1}})
	checkPicks(t, r, map[uint64]int{0: 0})
	r = mustRing(t, ports(81, 82), NormalizeOptions{}, ringCfg(3, 0))
	checkRing(t, r, []RingEntry{{7859399908942313493, 0}, {8241336090459785962, 1}, {12882406409176325258, 1}, {16064866803292627174, 0}})
	checkPicks(t, r, map[uint64]int{0: 0})
}

var tinyRingPicks = map[uint64]int{
	928266305478181108: 2, 4443673547860492590: 2, 5583722120771150861: 1,
	6311230543546372928: 1, 13444792449719432967: 2, 16117243373044804889: 0,
}

func TestRingEnvoyHostWeighted(t *testing.T) {
	hosts := ports(90, 91, 92)
	hosts[1].Weight, hosts[2].Weight = 2, 3
	t.Run("HostWeightedTinyRing", func(t *testing.T) {
		r := mustRing(t, hosts, NormalizeOptions{}, ringCfg(6, 6))
		checkStats(t, r, 6, 1, 3)
		checkPicks(t, r, tinyRingPicks)
	})
	t.Run("HostWeightedLargeRing", func(t *testing.T) {
		r := mustRing(t, hosts, NormalizeOptions{}, ringCfg(6144, 0))
		checkStats(t, r, 6144, 1024, 3072)
		if got := histogram(t, r.Pick, 3, 6000); !slices.Equal(got, []int{987, 1932, 3081}) {
			t.Errorf("histogram %v", got)
		}
	})
}

func zoned(zones string, lw []uint32, hw []uint32) []lbmodel.Host {
	hosts := ports(90, 91, 92, 93)[:len(zones)]
	for i := range hosts {
		hosts[i].Locality = lbmodel.Locality{Zone: zones[i : i+1]}
		hosts[i].LocalityWeight = lw[i]
		if hw != nil {
			hosts[i].Weight = hw[i]
		}
	}
	return hosts
}

func TestRingEnvoyLocalityWeighted(t *testing.T) {
	lw := NormalizeOptions{LocalityWeighted: true}
	t.Run("ZeroLocalityWeights", func(t *testing.T) {
		r := mustRing(t, zoned("AB", []uint32{0, 0}, nil), lw, DefaultRingConfig())
		if _, ok := r.Pick(0, 0); ok {
			t.Error("all-zero locality weights must give no host")
		}
	})
	hosts := zoned("ABCD", []uint32{1, 2, 3, 0}, nil)
	t.Run("LocalityWeightedTinyRing", func(t *testing.T) {
		r := mustRing(t, hosts, lw, ringCfg(6, 6))
		checkStats(t, r, 6, 1, 3)
		checkPicks(t, r, tinyRingPicks)
	})
	t.Run("LocalityWeightedLargeRing", func(t *testing.T) {
		r := mustRing(t, hosts, lw, ringCfg(6144, 0))
		checkStats(t, r, 6144, 1024, 3072)
		// Host :93 (zero-weight locality) is not in the vector at all.
		if got := histogram(t, r.Pick, 3, 6000); !slices.Equal(got, []int{987, 1932, 3081}) {
			t.Errorf("histogram %v (93 expected 0)", got)
		}
	})
	both := zoned("AABB", []uint32{1, 1, 2, 2}, []uint32{1, 2, 1, 2})
	t.Run("HostAndLocalityWeightedTinyRing", func(t *testing.T) {
		r := mustRing(t, both, lw, ringCfg(9, 9))
		checkStats(t, r, 9, 1, 4)
		checkPicks(t, r, map[uint64]int{
			928266305478181108: 2, 3851675632748031481: 3, 5583722120771150861: 1,
			6311230543546372928: 1, 7700377290971790572: 3, 12559126875973811811: 3,
			13444792449719432967: 2, 13784988426630141778: 3, 16117243373044804889: 0,
		})
	})
	t.Run("HostAndLocalityWeightedLargeRing", func(t *testing.T) {
		r := mustRing(t, both, lw, ringCfg(9216, 0))
		checkStats(t, r, 9216, 1024, 4096)
		if got := histogram(t, r.Pick, 4, 9000); !slices.Equal(got, []int{924, 2009, 2053, 4014}) {
			t.Errorf("histogram %v", got)
		}
	})
}

func TestRingEnvoyFractionalScale(t *testing.T) {
	t.Run("SmallFractionalScale", func(t *testing.T) {
		r := mustRing(t, ports(90, 91, 92, 93), NormalizeOptions{}, ringCfg(2, 2))
		checkStats(t, r, 2, 0, 1)
		// Running sums put the two entries on the 1st and 3rd hosts.
		if !slices.Equal(r.Counts, []uint64{1, 0, 1, 0}) {
			t.Errorf("counts %v", r.Counts)
		}
		got := histogram(t, r.Pick, 4, 1024)
		zeroes, sum := 0, 0
		for _, c := range got {
			if c == 0 {
				zeroes++
			}
			sum += c
		}
		if zeroes != 2 || sum != 1024 {
			t.Errorf("histogram %v", got)
		}
	})
	t.Run("LargeFractionalScale", func(t *testing.T) {
		r := mustRing(t, ports(90, 91), NormalizeOptions{}, ringCfg(1023, 1023))
		checkStats(t, r, 1023, 511, 512)
		if got := histogram(t, r.Pick, 2, 1023); !slices.Equal(got, []int{526, 497}) {
			t.Errorf("histogram %v", got)
		}
	})
}

func TestRingEnvoyLopsidedWeightSmallScale(t *testing.T) {
	hosts := make([]lbmodel.Host, 1024)
	for i := range hosts {
		hosts[i] = lbmodel.Host{Address: fmt.Sprintf("127.0.0.1:%d", i), Locality: lbmodel.Locality{Zone: "B"}, LocalityWeight: 1}
	}
	hosts[0].Locality, hosts[0].LocalityWeight = lbmodel.Locality{Zone: "A"}, 127
	r := mustRing(t, hosts, NormalizeOptions{LocalityWeighted: true}, ringCfg(1024, 1024))
	checkStats(t, r, 1024, 0, 1016)
	checkPicks(t, r, map[uint64]int{
		11664790346325243808: 1, 15894554872961148518: 128, 13958138884277627155: 256,
		15803774069438192949: 384, 3829253010855396576: 512, 17918147347826565154: 640,
		6442769608292299103: 768, 5881074926069334434: 896,
	})
}

func TestRingEnvoyBadRingSizeBounds(t *testing.T) {
	_, err := BuildRing(NormalizedWeights{}, ringCfg(20, 10))
	if err == nil || err.Error() != "ring hash: minimum_ring_size (20) > maximum_ring_size (10)" {
		t.Errorf("err = %v", err)
	}
	for _, c := range []RingConfig{{MinRingSize: MaxRingSizeLimit + 1, MaxRingSize: MaxRingSizeLimit + 1}, {MinRingSize: 1, MaxRingSize: MaxRingSizeLimit + 1}, {MaxRingSize: 10, HashFunction: 7}} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v must be rejected", c)
		}
	}
	if err := ringCfg(MaxRingSizeLimit, MaxRingSizeLimit).Validate(); err != nil {
		t.Errorf("min == max == limit is legal: %v", err)
	}
}

// RingHashFailoverTest.BasicFailover: P0 = {:80 healthy, :81 unhealthy}, P1 = {:82};
// loads 70/30, hash 69 -> P0 (:80), 71 -> P1 (:82).
func TestRingEnvoyBasicFailoverPriorityByHash(t *testing.T) {
	hosts := ports(80, 81, 82)
	hosts[1].Status = lbmodel.StatusUnhealthy
	hosts[2].Priority = 1
	load := lbmodel.ComputePriorityLoad(lbmodel.LevelsFromHosts(hosts, lbmodel.DefaultOverprovisioningFactor, false), lbmodel.DefaultPanicThreshold)
	rings := []*Ring{
		mustRing(t, hosts[:2], NormalizeOptions{Panic: load.Levels[0].Panic}, ringCfg(12, 0)),
		mustRing(t, hosts[2:], NormalizeOptions{Panic: load.Levels[1].Panic}, ringCfg(12, 0)),
	}
	checkStats(t, rings[1], 12, 12, 12)
	for h, want := range map[uint64]string{69: "127.0.0.1:80", 71: "127.0.0.1:82"} {
		p, _, ok := load.Choose(h)
		if !ok {
			t.Fatal("no priority")
		}
		i, ok := rings[p].Pick(h, 0)
		if !ok || rings[p].Hosts[i].Host.Address != want {
			t.Errorf("hash %d -> P%d %v, want %s", h, p, rings[p].Hosts[i].Host.Address, want)
		}
	}
}

// Seed 001 (load balancing docs): minimum ring 1024 and 16 hosts gives each
// host 64 entries.
func TestRingSeedSixteenHosts(t *testing.T) {
	var hosts []lbmodel.Host
	for i := range 16 {
		hosts = append(hosts, ports(8000+i)...)
	}
	r := mustRing(t, hosts, NormalizeOptions{}, DefaultRingConfig())
	checkStats(t, r, 1024, 64, 64)
	if r.Len() != 1024 {
		t.Errorf("entries %d", r.Len())
	}
}

func TestRingEdgeCases(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		r := mustRing(t, nil, NormalizeOptions{}, DefaultRingConfig())
		if _, ok := r.Pick(5, 0); ok || r.Size != 0 {
			t.Error("empty ring must give no host")
		}
	})
	t.Run("min ring 0", func(t *testing.T) {
		r := mustRing(t, ports(90, 91), NormalizeOptions{}, ringCfg(0, 0))
		if r.Len() != 0 || r.Size != 0 {
			t.Errorf("entries %d size %d", r.Len(), r.Size)
		}
		if _, ok := r.Pick(5, 0); ok {
			t.Error("min ring 0 must give no host")
		}
	})
	t.Run("one host", func(t *testing.T) {
		r := mustRing(t, ports(90), NormalizeOptions{}, DefaultRingConfig())
		checkStats(t, r, 1024, 1024, 1024)
		for _, h := range []uint64{0, 1, math.MaxUint64} {
			if i, ok := r.Pick(h, 3); !ok || i != 0 {
				t.Errorf("pick %d = %d", h, i)
			}
		}
	})
	t.Run("zero weight means default 1", func(t *testing.T) {
		a := mustRing(t, []lbmodel.Host{{Address: "127.0.0.1:90"}, {Address: "127.0.0.1:91", Weight: 1}}, NormalizeOptions{}, ringCfg(12, 0))
		b := mustRing(t, ports(90, 91), NormalizeOptions{}, ringCfg(12, 0))
		if !slices.Equal(ringEntries(a), ringEntries(b)) {
			t.Error("weight 0 must behave as unset (1)")
		}
	})
	t.Run("ipv6 key", func(t *testing.T) {
		r := mustRing(t, []lbmodel.Host{{Address: "[2001:db8::1]:443", Weight: 1}}, NormalizeOptions{}, ringCfg(2, 0))
		want := []uint64{XXHash64("[2001:db8::1]:443_0"), XXHash64("[2001:db8::1]:443_1")}
		slices.Sort(want)
		if r.Len() != 2 || r.Hashes[0] != want[0] || r.Hashes[1] != want[1] {
			t.Errorf("ring %v want %v", r.Hashes, want)
		}
	})
	t.Run("duplicate hash keys", func(t *testing.T) {
		hosts := ports(90, 91)
		for i := range hosts {
			hosts[i].Metadata = map[string]any{"hash_key": "same"}
		}
		r := mustRing(t, hosts, NormalizeOptions{}, ringCfg(4, 0))
		if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `"same"`) {
			t.Errorf("warnings %v", r.Warnings)
		}
		// Equal points: the stable sort keeps the first host first, so it wins.
		for _, h := range r.Hashes {
			if i, _ := r.Pick(h, 0); i != 0 {
				t.Errorf("pick %d = %d", h, i)
			}
		}
	})
	t.Run("non-string hash_key ignored", func(t *testing.T) {
		h := lbmodel.Host{Address: "10.0.0.1:80", Hostname: "a", Metadata: map[string]any{"hash_key": 3.0}}
		if Key(&h, false) != "10.0.0.1:80" || Key(&h, true) != "a" {
			t.Error("non-string hash_key must be ignored")
		}
		h.Metadata["hash_key"] = ""
		if Key(&h, false) != "10.0.0.1:80" {
			t.Error("empty hash_key must be ignored")
		}
	})
	t.Run("weight sum limit", func(t *testing.T) {
		_, err := NormalizeWeights([]lbmodel.Host{{Address: "a:1", Weight: math.MaxUint32}, {Address: "b:1", Weight: 1}}, NormalizeOptions{})
		if err == nil {
			t.Error("host weight sum over 2^32-1 must be rejected")
		}
		_, err = NormalizeWeights([]lbmodel.Host{{Address: "a:1", LocalityWeight: math.MaxUint32, Locality: lbmodel.Locality{Zone: "a"}}, {Address: "b:1", LocalityWeight: 1, Locality: lbmodel.Locality{Zone: "b"}}}, NormalizeOptions{LocalityWeighted: true})
		if err == nil {
			t.Error("locality weight sum over 2^32-1 must be rejected")
		}
	})
	t.Run("bad min weight", func(t *testing.T) {
		if _, err := BuildRing(NormalizedWeights{Hosts: []WeightedHost{{Weight: 0}}, Min: 0}, DefaultRingConfig()); err == nil {
			t.Error("a zero minimum weight must be an error, not an infinite ring")
		}
	})
}

// The ketama search must equal "first entry >= h, else entry 0", including
// duplicate points, h = 0, h past the last point, and crowded buckets.
func TestRingLookupMatchesFirstGreaterOrEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 600 {
		n := 1 + rng.IntN(20)
		if trial%2 == 1 {
			n = 1 + rng.IntN(3000)
		}
		hashes := make([]uint64, 0, n)
		for i := range n {
			v := rng.Uint64() >> (rng.IntN(4) * 16)
			if trial%3 == 0 && i > 0 {
				v = hashes[rng.IntN(i)]
			}
			hashes = append(hashes, v)
		}
		slices.Sort(hashes)
		r := &Ring{Hashes: hashes, EntryHosts: make([]int32, n)}
		r.Index()
		ref := make([]refRingEntry, n)
		for i, h := range hashes {
			ref[i].hash = h
		}
		probes := []uint64{0, math.MaxUint64}
		for _, h := range hashes {
			probes = append(probes, h, h-1, h+1)
		}
		for _, h := range probes {
			want := sort.Search(n, func(i int) bool { return hashes[i] >= h })
			if want == n {
				want = 0
			}
			if got, _ := r.Lookup(h, 0); got != want {
				t.Fatalf("ring of %d h=%d: got %d want %d", n, h, got, want)
			}
			if got, _ := ketamaLookup(ref, h); got != want {
				t.Fatalf("reference ring of %d h=%d: got %d want %d", n, h, got, want)
			}
		}
	}
}

// ringEntries is the ring as (hash, host) pairs.
func ringEntries(r *Ring) []RingEntry {
	out := make([]RingEntry, r.Len())
	for i := range out {
		out[i] = r.Entry(i)
	}
	return out
}
