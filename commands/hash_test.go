package commands

import (
	"encoding/json"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/lbctl/lbctl/lbmodel/hash"
)

// hashRun runs the real CLI (from the repository root, so fixture paths
// read as in the docs) and returns stdout, stderr and the exit code.
func hashRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	if _, err := os.Stat("fixtures/hash"); err != nil {
		t.Chdir("..") // restored when the test ends
	}
	return runCLI("", nil, args...)
}

// hashJSON runs lbctl hash -o json and decodes the report; hashes are read
// as json.Number so 64-bit values stay exact.
type hashJSONReport struct {
	Cluster    string          `json:"cluster"`
	LbPolicy   string          `json:"lb_policy"`
	RingSize   *uint64         `json:"ring_size"`
	TableSize  *uint64         `json:"table_size"`
	Priorities []hashJSONPrio  `json:"priorities"`
	Hosts      []hashJSONHost  `json:"hosts"`
	Lookups    []hashJSONLook  `json:"lookups"`
	Ring       []hashJSONPoint `json:"ring"`
	Table      []string        `json:"table"`
	Moved      *float64        `json:"moved"`
	Remove     *struct {
		RingHash       hashJSONMoved `json:"ring_hash"`
		Maglev         hashJSONMoved `json:"maglev"`
		MaglevOverRing float64       `json:"maglev_over_ring"`
	} `json:"remove"`
	Notes []string `json:"notes"`
}

type hashJSONPrio struct {
	Priority    int
	HealthyLoad int `json:"healthy_load"`
	Panic       bool
	Size        uint64
	MinEntries  uint64 `json:"min_entries"`
	MaxEntries  uint64 `json:"max_entries"`
	Imbalance   float64
	Verdict     string
}

type hashJSONHost struct {
	Address  string
	Priority int
	Entries  uint64
	Share    float64
}

type hashJSONLook struct {
	Input    string
	Hash     *uint64
	Priority int
	Host     *string
	Reason   string
}

type hashJSONPoint struct {
	Hash uint64
	Host string
}

type hashJSONMoved struct {
	Moved, Removed float64
	To             []struct {
		Host  string
		Share float64
	}
}

func hashJSON(t *testing.T, args ...string) hashJSONReport {
	t.Helper()
	out, errs, code := hashRun(t, append([]string{"hash", "-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r hashJSONReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	return r
}

func hashArgs(hashes ...uint64) []string {
	var a []string
	for _, h := range hashes {
		a = append(a, "--hash", strconv.FormatUint(h, 10))
	}
	return a
}

func checkLookups(t *testing.T, r hashJSONReport, want map[uint64]string) {
	t.Helper()
	seen := 0
	for _, l := range r.Lookups {
		w, ok := want[*l.Hash]
		if !ok {
			continue
		}
		seen++
		if l.Host == nil || *l.Host != w {
			t.Errorf("hash %d -> %v, want %s", *l.Hash, l.Host, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d lookups found", seen, len(want))
	}
}

// Envoy ring_hash_lb_test.cc RingHashLoadBalancerTest.Basic through the CLI:
// same hosts, same ring, same picks.
func TestHashCLIRingEnvoyBasic(t *testing.T) {
	args := append([]string{"fixtures/hash/ring-basic.yaml", "--cluster", "ring", "--dump"},
		hashArgs(0, math.MaxUint64, 3551244743356806947, 3551244743356806948, 16117243373044804880)...)
	r := hashJSON(t, args...)
	if r.LbPolicy != "RING_HASH" || r.RingSize == nil || *r.RingSize != 12 || r.TableSize != nil {
		t.Fatalf("policy %s ring_size %v table_size %v", r.LbPolicy, r.RingSize, r.TableSize)
	}
	p := func(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }
	checkLookups(t, r, map[uint64]string{
		0: p(94), math.MaxUint64: p(94), 3551244743356806947: p(95), 3551244743356806948: p(93),
		16117243373044804880: p(90),
	})
	want := []hashJSONPoint{
		{833437586790550860, p(94)}, {928266305478181108, p(92)}, {1033482794131418490, p(90)},
		{3551244743356806947, p(95)}, {3851675632748031481, p(93)}, {5583722120771150861, p(91)},
		{6311230543546372928, p(91)}, {7700377290971790572, p(93)}, {13144177310400110813, p(95)},
		{13444792449719432967, p(92)}, {15516499411664133160, p(94)}, {16117243373044804889, p(90)},
	}
	if len(r.Ring) != len(want) {
		t.Fatalf("ring has %d entries, want 12", len(r.Ring))
	}
	for i := range want {
		if r.Ring[i] != want[i] {
			t.Errorf("ring[%d] = %+v, want %+v", i, r.Ring[i], want[i])
		}
	}
	// Stats gauges: 2 hashes per host (min_hashes_per_host/max_hashes_per_host).
	if pr := r.Priorities[0]; pr.MinEntries != 2 || pr.MaxEntries != 2 || pr.Size != 12 || pr.HealthyLoad != 100 {
		t.Errorf("priority %+v", pr)
	}
	// Shares from the asserted ring: :95 owns (1033482794131418490, 3551244743356806947]
	// and (7700377290971790572, 13144177310400110813].
	for _, h := range r.Hosts {
		if h.Address == p(95) {
			want := (float64(3551244743356806947-1033482794131418490) + float64(13144177310400110813-7700377290971790572)) / 18446744073709551616.0
			if math.Abs(h.Share-want) > 1e-15 || h.Entries != 2 {
				t.Errorf(":95 share %v entries %d, want %v 2", h.Share, h.Entries, want)
			}
		}
	}
}

// RingHashLoadBalancerTest.BasicWithMurmur2 picks.
func TestHashCLIRingEnvoyMurmur2(t *testing.T) {
	r := hashJSON(t, append([]string{"fixtures/hash/ring-basic.yaml", "--cluster", "murmur"},
		hashArgs(0, math.MaxUint64, 1358027074129602068, 1358027074129602069, 10150910876324007730)...)...)
	checkLookups(t, r, map[uint64]string{
		0: "127.0.0.1:85", math.MaxUint64: "127.0.0.1:85", 1358027074129602068: "127.0.0.1:85",
		1358027074129602069: "127.0.0.1:83", 10150910876324007730: "127.0.0.1:82",
	})
}

// Envoy maglev_lb_test.cc MaglevLoadBalancerTest.Basic (table) and
// BasicWithRetryHostPredicate's first attempt (hash 10 -> host index 1).
func TestHashCLIMaglevEnvoyBasic(t *testing.T) {
	r := hashJSON(t, "fixtures/hash/maglev-basic.yaml", "--cluster", "maglev", "--dump", "--hash", "10")
	want := []string{"127.0.0.1:92", "127.0.0.1:94", "127.0.0.1:90", "127.0.0.1:91", "127.0.0.1:95", "127.0.0.1:90", "127.0.0.1:93"}
	if strings.Join(r.Table, " ") != strings.Join(want, " ") {
		t.Errorf("table %v, want %v", r.Table, want)
	}
	if r.TableSize == nil || *r.TableSize != 7 || r.RingSize != nil {
		t.Errorf("table_size %v ring_size %v", r.TableSize, r.RingSize)
	}
	checkLookups(t, r, map[uint64]string{10: "127.0.0.1:91"})
	if pr := r.Priorities[0]; pr.MinEntries != 1 || pr.MaxEntries != 2 || pr.Imbalance != 2 || !strings.Contains(pr.Verdict, "raise table_size") {
		t.Errorf("priority %+v", pr)
	}
	// Slots 0..20 repeat the table (the test checks 3 rounds).
	var hs []uint64
	for i := range uint64(21) {
		hs = append(hs, i)
	}
	r = hashJSON(t, append([]string{"fixtures/hash/maglev-basic.yaml", "--cluster", "maglev"}, hashArgs(hs...)...)...)
	for i, l := range r.Lookups {
		if *l.Host != want[i%7] {
			t.Errorf("hash %d -> %s, want %s", i, *l.Host, want[i%7])
		}
	}
	// The typed extension form with its default table size.
	r = hashJSON(t, "fixtures/hash/maglev-basic.yaml", "--cluster", "maglev-typed")
	if r.TableSize == nil || *r.TableSize != 65537 || r.Priorities[0].Size != 65537 {
		t.Errorf("typed Maglev: table_size %v", r.TableSize)
	}
}

// RingHashFailoverTest.BasicFailover: loads 70/30, hash 69 -> P0, 71 -> P1.
func TestHashCLIEnvoyBasicFailover(t *testing.T) {
	r := hashJSON(t, append([]string{"fixtures/hash/failover.yaml", "--cluster", "failover"}, hashArgs(69, 71)...)...)
	if r.Priorities[0].HealthyLoad != 70 || r.Priorities[1].HealthyLoad != 30 {
		t.Fatalf("loads %+v", r.Priorities)
	}
	checkLookups(t, r, map[uint64]string{69: "127.0.0.1:80", 71: "127.0.0.1:82"})
	if r.Lookups[0].Priority != 0 || r.Lookups[1].Priority != 1 {
		t.Errorf("priorities %d %d", r.Lookups[0].Priority, r.Lookups[1].Priority)
	}
	// P1's ring: 12 hashes on its single host (stats 12/12).
	if p1 := r.Priorities[1]; p1.MinEntries != 12 || p1.MaxEntries != 12 {
		t.Errorf("P1 %+v", p1)
	}
}

// --key is xxHash64 with seed 0: Envoy hash_test.cc Hash.xxHash vectors, and
// the host is the one --hash of that value gives.
func TestHashCLIKeyIsXXHash64(t *testing.T) {
	keys := map[string]uint64{"foo": 3728699739546630719, "bar": 5234164152756840025, "lyft": 4400747396090729504, "": 17241709254077376921}
	args := []string{"fixtures/hash/ring-basic.yaml", "--cluster", "ring"}
	for k, h := range keys {
		args = append(args, "--key", k, "--hash", strconv.FormatUint(h, 10))
	}
	r := hashJSON(t, args...)
	if len(r.Lookups) != 2*len(keys) {
		t.Fatalf("%d lookups", len(r.Lookups))
	}
	byHash := map[uint64]string{}
	for _, l := range r.Lookups[len(keys):] {
		byHash[*l.Hash] = *l.Host
	}
	for _, l := range r.Lookups[:len(keys)] {
		want := keys[l.Input]
		if l.Hash == nil || *l.Hash != want {
			t.Errorf("--key %q hash %v, want %d", l.Input, l.Hash, want)
			continue
		}
		if *l.Host != byHash[want] {
			t.Errorf("--key %q host %s, --hash gives %s", l.Input, *l.Host, byHash[want])
		}
	}
}

// Requests go through the route's hash_policy (HashPolicyImpl::generateHash).
func TestHashCLIRequestThroughRoute(t *testing.T) {
	// Header policy: a single value hashes as xxHash64(value).
	r := hashJSON(t, "fixtures/hash/routes.yaml", "--cluster", "sessions", "--route", "by-user", "--header", "X-User=foo")
	if l := r.Lookups[0]; l.Hash == nil || *l.Hash != 3728699739546630719 || l.Host == nil {
		t.Errorf("header lookup %+v", l)
	}
	// Cookie then source IP: rotl64(xxHash64(cookie), 1) ^ xxHash64(ip).
	r = hashJSON(t, "fixtures/hash/routes.yaml", "--cluster", "sessions", "--route", "by-session", "--cookie", "session=abc", "--source-ip", "10.1.2.3")
	want := bits.RotateLeft64(hash.XXHash64("abc"), 1) ^ hash.XXHash64("10.1.2.3")
	if l := r.Lookups[0]; l.Hash == nil || *l.Hash != want {
		t.Errorf("cookie+ip lookup %+v, want hash %d", l, want)
	}
	// The same hash as --hash lands on the same host.
	r2 := hashJSON(t, "fixtures/hash/routes.yaml", "--cluster", "sessions", "--hash", strconv.FormatUint(want, 10))
	if *r2.Lookups[0].Host != *r.Lookups[0].Host {
		t.Errorf("request host %s, --hash host %s", *r.Lookups[0].Host, *r2.Lookups[0].Host)
	}
	// Only the source IP given to the by-session route: the cookie policy
	// yields nothing, so the hash is xxHash64(ip) alone.
	r = hashJSON(t, "fixtures/hash/routes.yaml", "--cluster", "sessions", "--route", "by-session", "--source-ip", "10.1.2.3")
	if l := r.Lookups[0]; *l.Hash != hash.XXHash64("10.1.2.3") {
		t.Errorf("ip only: %+v", l)
	}
	// No policy yields a hash: hash and host null, priority present, reason given.
	out, _, code := hashRun(t, "hash", "-o", "json", "fixtures/hash/routes.yaml", "--cluster", "sessions", "--route", "by-user", "--source-ip", "10.1.2.3")
	if code != 0 || !strings.Contains(out, `"hash": null`) || !strings.Contains(out, `"host": null`) || !strings.Contains(out, `"priority": 0`) || !strings.Contains(out, "random") {
		t.Errorf("no-hash lookup (exit %d):\n%s", code, out)
	}
}

func TestHashCLIRemoveRingVsMaglev(t *testing.T) {
	// Envoy's host-loss benchmark shape: 500 hosts, minimum ring 65536 (132
	// entries per host before and after), lose one host.
	r := hashJSON(t, "fixtures/hash/hostloss-500.yaml", "--cluster", "ring500", "--remove", "10.1.1.243:80")
	rm := r.Remove
	if rm == nil || r.Moved == nil || *r.Moved != rm.RingHash.Moved {
		t.Fatalf("moved %v remove %+v", r.Moved, rm)
	}
	// Every host keeps its 132 entries, so exactly the removed host's arcs move.
	if rm.RingHash.Moved != rm.RingHash.Removed || rm.RingHash.Moved <= 0 {
		t.Errorf("ring moved %v, removed host's share %v", rm.RingHash.Moved, rm.RingHash.Removed)
	}
	// Maglev: the removed host had 131 of 65537 slots; more than that moves.
	if math.Abs(rm.Maglev.Removed-131.0/65537) > 1e-15 || rm.Maglev.Moved <= 2*rm.RingHash.Moved {
		t.Errorf("maglev moved %v removed %v (ring %v)", rm.Maglev.Moved, rm.Maglev.Removed, rm.RingHash.Moved)
	}
	if math.Abs(rm.MaglevOverRing-rm.Maglev.Moved/rm.RingHash.Moved) > 1e-12 {
		t.Errorf("ratio %v", rm.MaglevOverRing)
	}
	for _, m := range []hashJSONMoved{rm.RingHash, rm.Maglev} {
		sum := 0.0
		for _, d := range m.To {
			sum += d.Share
			if d.Host == "10.1.1.243:80" {
				t.Errorf("nothing can move to the removed host")
			}
		}
		if math.Abs(sum-m.Moved) > 1e-9 {
			t.Errorf("destinations sum %v, moved %v", sum, m.Moved)
		}
	}
	// Seed 001's 16 hosts with the default ring: the ring rescales from 64
	// to 69 entries per host, so ring hash churns more than the removed share.
	r = hashJSON(t, "fixtures/hash/ring-16.yaml", "--cluster", "maglev16", "--remove", "10.0.0.3:80")
	if *r.Moved != r.Remove.Maglev.Moved || r.Remove.RingHash.Moved <= r.Remove.RingHash.Removed {
		t.Errorf("16 hosts: %+v", r.Remove)
	}
	// Removing a priority's only healthy host: P0 keeps no health, all
	// traffic goes to P1, so everything P0 answered moves.
	r = hashJSON(t, "fixtures/hash/failover.yaml", "--cluster", "failover", "--remove", "127.0.0.1:80")
	if math.Abs(*r.Moved-0.70) > 1e-12 {
		t.Errorf("failover removal moved %v, want 0.70", *r.Moved)
	}
}

func TestHashCLIErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"non-prime table (MaglevLoadBalancerTest.NoPrimeNumber)", []string{"fixtures/hash/bad.yaml", "-c", "not-prime"}, ExitInput,
			"fixtures/hash/bad.yaml:5:35: cluster \"not-prime\": The table size of maglev must be prime number"},
		{"min ring > max ring (RingHashLoadBalancerTest.BadRingSizeBounds)", []string{"fixtures/hash/bad.yaml", "-c", "min-over-max"}, ExitInput,
			"ring hash: minimum_ring_size (20) > maximum_ring_size (10)"},
		{"non-hash cluster", []string{"fixtures/hash/bad.yaml", "-c", "rr"}, ExitUsage,
			"lbctl: cluster rr uses ROUND_ROBIN; hash applies to RING_HASH and MAGLEV"},
		{"unknown cluster", []string{"fixtures/hash/bad.yaml", "-c", "nope"}, ExitUsage, "no such cluster"},
		{"no --cluster", []string{"fixtures/hash/bad.yaml"}, ExitUsage, "--cluster NAME is required"},
		{"negative hash", []string{"fixtures/hash/ring-basic.yaml", "-c", "ring", "--hash", "-1"}, ExitUsage, "unsigned 64-bit"},
		{"hash overflow", []string{"fixtures/hash/ring-basic.yaml", "-c", "ring", "--hash", "18446744073709551616"}, ExitUsage, "unsigned 64-bit"},
		{"two source IPs", []string{"fixtures/hash/routes.yaml", "-c", "sessions", "--source-ip", "1.1.1.1", "--source-ip", "2.2.2.2"}, ExitUsage, "one source address"},
		{"bad source IP", []string{"fixtures/hash/routes.yaml", "-c", "sessions", "--route", "by-session", "--source-ip", "nope"}, ExitUsage, "not an IP address"},
		{"bad header", []string{"fixtures/hash/routes.yaml", "-c", "sessions", "--header", "novalue"}, ExitUsage, "NAME=VALUE"},
		{"ambiguous routes", []string{"fixtures/hash/routes.yaml", "-c", "sessions", "--header", "x-user=a"}, ExitUsage, "pick one with --route"},
		{"unknown route", []string{"fixtures/hash/routes.yaml", "-c", "sessions", "--route", "nope", "--header", "x-user=a"}, ExitUsage, "by-session, by-user, static"},
		{"unknown --remove", []string{"fixtures/hash/ring-basic.yaml", "-c", "ring", "--remove", "1.2.3.4:5"}, ExitUsage, "has no such host"},
		{"--dump priority out of range", []string{"fixtures/hash/ring-basic.yaml", "-c", "ring", "--dump", "--priority", "3"}, ExitUsage, "priorities 0..0"},
		{"missing file", []string{"fixtures/hash/nope.yaml", "-c", "ring"}, ExitInput, "nope.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := hashRun(t, append([]string{"hash"}, c.args...)...)
			if code != c.code || !strings.Contains(errs, c.msg) || out != "" {
				t.Errorf("exit %d (want %d)\nstderr: %s\nstdout: %s", code, c.code, errs, out)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "internal error") {
				t.Errorf("crash: %s", errs)
			}
		})
	}
}

func TestHashCLIEmptyCluster(t *testing.T) {
	r := hashJSON(t, "fixtures/hash/bad.yaml", "--cluster", "empty", "--key", "a", "--dump")
	if len(r.Lookups) != 1 || r.Lookups[0].Host != nil || r.Lookups[0].Hash == nil || r.Lookups[0].Reason == "" {
		t.Errorf("lookup %+v", r.Lookups)
	}
	if r.RingSize == nil || *r.RingSize != 0 {
		t.Errorf("ring_size %v", r.RingSize)
	}
}

func TestHashCLITextAndYAML(t *testing.T) {
	out, errs, code := hashRun(t, "hash", "fixtures/hash/ring-16.yaml", "-c", "ring16", "--key", "alice", "--remove", "10.0.0.3:80")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"ring16  RING_HASH, ring of 1024 entries (P0), XX_HASH", "max/min share ratio 1.53: imbalanced - raise minimum_ring_size",
		"alice", "Removing 10.0.0.3:80", "ring hash", "Maglev", "MOVED TO", "... 6 more hosts"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = hashRun(t, "hash", "-o", "yaml", "fixtures/hash/ring-basic.yaml", "-c", "ring", "--hash", "18446744073709551615")
	var y struct {
		Lookups []struct {
			Hash uint64 `yaml:"hash"`
			Host string `yaml:"host"`
		} `yaml:"lookups"`
	}
	if code != 0 || yaml.Unmarshal([]byte(out), &y) != nil || len(y.Lookups) != 1 || y.Lookups[0].Hash != math.MaxUint64 || y.Lookups[0].Host != "127.0.0.1:94" {
		t.Errorf("yaml (exit %d): %+v\n%s", code, y, out)
	}
}

// explain carries a one-line placement summary for hash clusters and warns
// about a hash policy on a cluster that does not hash.
func TestHashCLIExplainSummary(t *testing.T) {
	out, errs, code := hashRun(t, "explain", "-o", "json", "fixtures/hash/ring-16.yaml", "fixtures/hash/routes.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		// Seed 001: 16 hosts on the default 1024-entry ring, 64 entries each.
		"ring of 1024 entries over 16 hosts, host shares 5.0%–7.7% (max/min share ratio 1.53: imbalanced — raise minimum_ring_size",
		"Maglev table of 65537 slots over 16 hosts, host shares 6.2%–6.3% (max/min share ratio 1.00: balanced",
		`route \"static\" sets a hash_policy, but plain uses ROUND_ROBIN: only RING_HASH and MAGLEV use the request hash, so it is ignored`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q", want)
		}
	}
}

// hash --remove on a 500-host ring names the 10 hosts that gain the most
// of the removed hash space, not all 442; --all lists every one.
func TestHashRemoveSummarisesMovers(t *testing.T) {
	t.Chdir("..")
	args := []string{"hash", "fixtures/hash/hostloss-500.yaml", "--cluster", "ring500", "--remove", "10.1.1.243:80"}
	code, out, errs := termRun(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, movers, _ := strings.Cut(out, "MOVED TO")
	rows := strings.Count(movers, "\n10.1.")
	if rows != 10 || !strings.Contains(movers, "432 more hosts gain hash space (--all lists every host)") {
		t.Errorf("want the top 10 movers and a count of the rest, got %d rows:\n%s", rows, movers)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Maglev moves") && len(l) > 100 {
			t.Errorf("prose line of %d columns: %q", len(l), l)
		}
	}
	_, all, _ := termRun(t, nil, append(args, "--all")...)
	_, movers, _ = strings.Cut(all, "MOVED TO")
	if n := strings.Count(movers, "\n10.1."); n != 442 {
		t.Errorf("--all: %d movers, want 442", n)
	}
}

// With weights 1:4 the shares are about 20%/80%; the verdict compares them
// with the weighted shares, so it says balanced and says against what.
func TestHashVerdictAgainstWeights(t *testing.T) {
	f := filepath.Join(t.TempDir(), "rw.yaml")
	os.WriteFile(f, []byte(`name: rw
type: STATIC
lb_policy: RING_HASH
load_assignment:
  cluster_name: rw
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
      load_balancing_weight: 1
    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
      load_balancing_weight: 4
`), 0o644)
	_, out, _ := termRun(t, nil, "hash", f, "--cluster", "rw")
	if !strings.Contains(out, "max/min ratio of share to weighted share 1.03: balanced") || !strings.Contains(out, "19.57% - 80.43%") {
		t.Errorf("verdict:\n%s", out)
	}
}
