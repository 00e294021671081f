package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const routeFixture = "../fixtures/route/weighted.yaml"

// golden compares out with testdata/route/NAME, or writes it with -update.
func golden(t *testing.T, name, out string) {
	t.Helper()
	file := filepath.Join("testdata", "route", name)
	if *update {
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./commands -run TestRoute -update writes it)", err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s:\n%s", file, out)
	}
}

func TestRouteGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"split.txt", []string{"--path", "/home"}},
		{"split.json", []string{"--path", "/home", "--header", "x-user=alice", "-o", "json"}},
		{"hashed.txt", []string{"--path", "/checkout", "--header", "x-user=alice"}},
		{"picked.json", []string{"--path", "/home", "--random-value", "60", "-o", "json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := run(t, "", append([]string{"route", routeFixture}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, c.name, out)
		})
	}
}

// The split's numbers, independent of the golden files: weights 50/30/20;
// the subset cluster's v2 hosts halve its 30%; the aggregate's first child
// (one of two hosts healthy: 50% x 1.4 = 70%) takes 14%, the second 6%.
func TestRouteSplitShares(t *testing.T) {
	out, errs, code := run(t, "", "route", routeFixture, "--path", "/home", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Action string
		Hosts  []struct {
			Cluster, Address string
			Share            float64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"versions/10.2.0.2:80": 0.15, "versions/10.2.0.3:80": 0.15, "east/10.3.0.1:80": 0.14, "west/10.4.0.1:80": 0.06}
	ring := 0.0
	for _, h := range r.Hosts {
		if h.Cluster == "ring" {
			ring += h.Share
			continue
		}
		k := h.Cluster + "/" + h.Address
		if w, ok := want[k]; !ok || fmt.Sprintf("%.6f", w) != fmt.Sprintf("%.6f", h.Share) {
			t.Errorf("%s share %v, want %v", k, h.Share, w)
		}
		delete(want, k)
	}
	if r.Action != "weighted_clusters" || len(want) > 0 || fmt.Sprintf("%.6f", ring) != "0.500000" {
		t.Errorf("action %s, ring %v, missing %v", r.Action, ring, want)
	}
}

// With a hash policy and a header, the one host route names is the one
// `lbctl hash` finds for the same key (a header policy hashes its value).
func TestRouteHostEqualsHash(t *testing.T) {
	for _, user := range []string{"alice", "bob", "carol", "dave", "eve"} {
		out, errs, code := run(t, "", "route", routeFixture, "--path", "/checkout", "--header", "x-user="+user, "-o", "json")
		if code != 0 {
			t.Fatalf("route exit %d: %s", code, errs)
		}
		var r struct{ Hash struct{ Host, Hash string } }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		out, errs, code = run(t, "", "hash", routeFixture, "--cluster", "ring", "--key", user, "-o", "json")
		if code != 0 {
			t.Fatalf("hash exit %d: %s", code, errs)
		}
		var h struct {
			Lookups []struct {
				Hash *uint64
				Host *string
			}
		}
		if err := json.Unmarshal([]byte(out), &h); err != nil {
			t.Fatal(err)
		}
		if len(h.Lookups) != 1 || h.Lookups[0].Host == nil || *h.Lookups[0].Host != r.Hash.Host || fmt.Sprintf("0x%016x", *h.Lookups[0].Hash) != r.Hash.Hash {
			t.Errorf("%s: route %+v, hash %s", user, r.Hash, out)
		}
	}
}

func TestRouteExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--path", "/x", "--authority", "nowhere.example"}, 0, ""},
		{[]string{}, 2, "--path PATH is required"},
		{[]string{"--path", "/x", "--header", "novalue"}, 2, "expected NAME=VALUE"},
		{[]string{"--path", "/x", "--random-value", "-1"}, 2, "--random-value"},
		{[]string{"--path", "/x", "--route-config", "nope"}, 2, "no such route configuration"},
		{[]string{"--path", "/x", "--listener", "nope"}, 2, "no such listener"},
		{[]string{"--path", "/x", "--set-health", "nope=50"}, 2, "no such cluster"},
		{[]string{"--path", "/x", "--zone", "a"}, 2, "REGION/ZONE"},
		{[]string{"--path", "/x", "../fixtures/broken/does-not-exist.yaml"}, 3, "does-not-exist"},
	} {
		out, errs, code := run(t, "", append([]string{"route", routeFixture}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, code, errs, c.code, c.err)
		}
		if c.code == 0 && !strings.Contains(out, "Envoy answers 404") {
			t.Errorf("%v: %s", c.args, out)
		}
	}
}

// Flags go before or after FILE.
func TestRouteFlagsBeforeFile(t *testing.T) {
	a, _, c1 := run(t, "", "route", "--path", "/home", "-o", "json", routeFixture)
	b, _, c2 := run(t, "", "route", routeFixture, "--path", "/home", "-o", "json")
	if c1 != 0 || c2 != 0 || a != b {
		t.Errorf("exit %d/%d, outputs differ:\n%s\n%s", c1, c2, a, b)
	}
}

// Hostile requests and configs end quickly with a clear answer or error.
func TestRouteHostile(t *testing.T) {
	args := []string{"route", routeFixture, "--path", "/" + strings.Repeat("a", 1<<20), "--header", "x-user=" + strings.Repeat("\x1b[31m", 1000), "-o", "json"}
	for i := 0; i < 10000; i++ {
		args = append(args, "--header", fmt.Sprintf("h%d=v", i))
	}
	start := time.Now()
	out, errs, code := run(t, "", args...)
	if code != 0 || strings.ContainsRune(out, 0x1b) || time.Since(start) > 20*time.Second {
		t.Errorf("10,000 headers: exit %d in %v, stderr %q, raw escape %v", code, time.Since(start), errs, strings.ContainsRune(out, 0x1b))
	}

	dir := t.TempDir()
	huge := filepath.Join(dir, "regex.yaml")
	re := strings.Repeat("(a+)+", 5000)
	os.WriteFile(huge, []byte(`name: r
virtual_hosts:
- name: v
  domains: ["*"]
  routes:
  - match: {safe_regex: {regex: "`+re+`"}}
    route: {cluster: c}
`), 0o644)
	start = time.Now()
	_, errs, code = run(t, "", "route", huge, "--path", "/"+strings.Repeat("a", 10000))
	if code != 3 || !strings.Contains(errs, "regex.yaml:") || time.Since(start) > 20*time.Second {
		t.Errorf("huge regex: exit %d in %v, stderr %q", code, time.Since(start), errs)
	}
}

// Completion offers the route configurations, listeners and domains of
// the files on the line.
func TestRouteCompletion(t *testing.T) {
	const f = "../fixtures/route/listeners.yaml"
	for flag, want := range map[string]string{
		"--listener":     "internal\npublic\n",
		"--route-config": "internal_routes\npublic_routes\n",
		"--authority":    "shop.example\nshop.example:9090\n",
	} {
		out, errs, code := run(t, "", "completion", "__complete", "--current=", "route", f, flag)
		if code != 0 || out != want+":nofiles\n" {
			t.Errorf("%s: exit %d %q, got %q want %q", flag, code, errs, out, want)
		}
	}
}
