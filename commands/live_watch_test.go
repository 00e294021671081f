package commands

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/watch"
	"github.com/lbctl/lbctl/commands/cmdutil"
)

// watchServer answers fetch i (counted by /config_dump requests) with
// answers[i] (the last one repeats); a nil dump answers 500.
func watchServer(t *testing.T, answers [][2]string) *httptest.Server {
	t.Helper()
	var fetch atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(fetch.Load())
		if r.URL.Path == "/config_dump" {
			i = int(fetch.Add(1))
		}
		a := answers[min(i, len(answers))-1]
		if a[0] == "" {
			http.Error(w, "restarting", http.StatusInternalServerError)
			return
		}
		if r.URL.Path == "/config_dump" {
			w.Write([]byte(a[0]))
		} else {
			w.Write([]byte(a[1]))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// watchAnswers is a live Envoy changing under --watch: fetch 1 as
// fixtures/live (10.0.0.2 ejected); 2 the same; 3 10.0.0.2 back and
// 10.0.0.4 ejected; 4 a new static cluster; 5 10.0.0.3 gone from EDS;
// 6 the admin answers 500.
func watchAnswers(t *testing.T) [][2]string {
	d, c := liveFixtures(t)
	dump, clusters := string(d), string(c)
	swapped := strings.Replace(clusters, `"HEALTHY", "failed_outlier_check": true}`, `"HEALTHY"}`, 1)
	swapped = strings.Replace(swapped, `"port_value": 8080}}, "health_status": {"eds_health_status": "HEALTHY"}}
      ]`, `"port_value": 8080}}, "health_status": {"eds_health_status": "HEALTHY", "failed_outlier_check": true}}
      ]`, 1)
	if swapped == clusters || strings.Count(swapped, "failed_outlier_check") != 1 {
		t.Fatal("fixtures/live/clusters.json changed shape")
	}
	extra := strings.Replace(dump, `"dynamic_active_clusters": [`, `"static_clusters": [{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
  "name": "extra", "type": "STATIC", "load_assignment": {"cluster_name": "extra", "endpoints": [{"lb_endpoints": [
  {"endpoint": {"address": {"socket_address": {"address": "10.9.0.1", "port_value": 80}}}}]}]}}}],
 "dynamic_active_clusters": [`, 1)
	gone := strings.Replace(extra, `{"endpoint": {"address": {"socket_address": {"address": "10.0.0.3", "port_value": 8080}}}, "health_status": "HEALTHY"},`, "", 1)
	if extra == dump || gone == extra {
		t.Fatal("fixtures/live/config_dump.json changed shape")
	}
	return [][2]string{{dump, clusters}, {dump, clusters}, {dump, swapped}, {extra, swapped}, {gone, swapped}, {"", ""}}
}

// watchEnv is the process's environment with --watch ending after rounds
// re-fetches, each stamped 2026-01-02T12:00:00Z.
func watchEnv(rounds int) cmdutil.Env {
	return cmdutil.Env{WatchRounds: rounds, Now: func() time.Time { return time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC) }}
}

func TestWatchText(t *testing.T) {
	srv := watchServer(t, watchAnswers(t))
	out, errs, code := runEnv("", watchEnv(5), "explain", "--admin", srv.URL, "--watch", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, changes, ok := strings.Cut(out, "\n[12:00:00Z] fetch 2")
	if !ok || !strings.Contains(out[:len(out)-len(changes)], "10.0.0.2:8080  P0        -         UNHEALTHY") {
		t.Fatalf("no first report then fetch 2:\n%s", out)
	}
	// 3 of 4 healthy is 105% available: one priority, the load stays 100;
	// the three healthy hosts share evenly, then the two of three left.
	want := `[12:00:00Z] fetch 2: no change

[12:00:00Z] fetch 3: 4 changes
  backend: 10.0.0.2:8080 UNHEALTHY -> HEALTHY
  backend: 10.0.0.4:8080 HEALTHY -> UNHEALTHY
  backend: 10.0.0.2:8080 share 0.00% -> 33.33%
  backend: 10.0.0.4:8080 share 33.33% -> 0.00%

[12:00:00Z] fetch 4: 1 change
  + cluster extra (ROUND_ROBIN)

[12:00:00Z] fetch 5: 3 changes
  backend: - host 10.0.0.3:8080 (had 33.33%)
  backend: 10.0.0.1:8080 share 33.33% -> 50.00%
  backend: 10.0.0.2:8080 share 33.33% -> 50.00%

[12:00:00Z] fetch 6: failed: `
	if got := "[12:00:00Z] fetch 2" + changes; !strings.HasPrefix(got, want) || !strings.Contains(got, "answered 500") {
		t.Errorf("changes:\n%s\nwant:\n%s... answered 500", got, want)
	}
}

func TestWatchJSON(t *testing.T) {
	srv := watchServer(t, watchAnswers(t))
	out, errs, code := runEnv("", watchEnv(5), "explain", "--admin", srv.URL, "--watch", "1ms", "--cluster", "backend", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, `"changes": null`) {
		t.Error("a fetch printed \"changes\": null; lists are [] (the failed fetch included)")
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var first struct{ Clusters []struct{ Name string } }
	if err := dec.Decode(&first); err != nil || len(first.Clusters) != 1 {
		t.Fatalf("first report: %v %+v", err, first)
	}
	var kinds []string
	for n := 2; n <= 6; n++ {
		var f watch.Fetch
		if err := dec.Decode(&f); err != nil || f.Fetch != n || f.Time != "2026-01-02T12:00:00Z" {
			t.Fatalf("fetch %d: %v %+v", n, err, f)
		}
		var k []string
		for _, c := range f.Changes {
			k = append(k, c.Change+" "+c.Host)
		}
		kinds = append(kinds, strings.Join(k, ","))
		if n == 6 && !strings.Contains(f.Error, "answered 500") {
			t.Errorf("fetch 6 error %q", f.Error)
		}
	}
	// --cluster backend: the new cluster "extra" is not watched.
	want := []string{"", "health 10.0.0.2:8080,health 10.0.0.4:8080,share 10.0.0.2:8080,share 10.0.0.4:8080", "",
		"host_removed 10.0.0.3:8080,share 10.0.0.1:8080,share 10.0.0.2:8080", ""}
	if strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Errorf("changes %q, want %q", kinds, want)
	}
}

func TestWatchUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "../fixtures/aggregate.yaml", "--watch", "1s"}, "--watch needs --admin URL or --csds ADDR"},
		{[]string{"explain", "--admin", "http://127.0.0.1:1", "--watch", "1s", "--observe", "1s"}, "cannot be combined"},
		{[]string{"explain", "--admin", "http://127.0.0.1:1", "--watch", "1s", "-o", "yaml"}, "--watch writes text or JSON"},
		{[]string{"explain", "--admin", "http://127.0.0.1:1", "--watch", "1s", "--semantics", "both"}, "one semantics"},
	} {
		if _, errs, code := run(t, "", tc.args...); code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q, want usage error %q", tc.args, code, errs, tc.want)
		}
	}
}

// A name from the live source reaches a fetch's text lines escaped, as it
// does the first report: a newline in it starts no line of its own.
func TestWatchTextEscapes(t *testing.T) {
	d, c := liveFixtures(t)
	extra := strings.Replace(string(d), `"dynamic_active_clusters": [`, `"static_clusters": [{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
  "name": "ex\ntra", "type": "STATIC"}}],
 "dynamic_active_clusters": [`, 1)
	srv := watchServer(t, [][2]string{{string(d), string(c)}, {extra, string(c)}})
	out, errs, code := runEnv("", watchEnv(1), "explain", "--admin", srv.URL, "--watch", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `+ cluster ex\ntra (`) {
		t.Errorf("want the name escaped:\n%s", out)
	}
}

// TestWatchEscapedNameUnchanged: a cluster whose name holds a control
// character is not reported removed and added again on an unchanged fetch
// (the text report escapes names; the comparison must see both sides alike).
func TestWatchEscapedNameUnchanged(t *testing.T) {
	a := watchAnswers(t)[3]
	a[0] = strings.Replace(a[0], `"name": "extra"`, `"name": "ex\u0001tra"`, 1)
	srv := watchServer(t, [][2]string{a, a})
	out, errs, code := runEnv("", watchEnv(1), "explain", "--admin", srv.URL, "--watch", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `ex\x01tra`) || !strings.Contains(out, "fetch 2: no change") {
		t.Errorf("fetch 2 should be unchanged:\n%s", out)
	}
}
