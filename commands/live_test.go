package commands

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// adminServer serves fixtures/live the way Envoy's admin answers
// /config_dump?include_eds and /clusters?format=json, under prefix, and
// counts the requests it gets.
func adminServer(t *testing.T, prefix string, dump, clusters []byte) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		switch {
		case r.URL.Path == prefix+"/config_dump" && r.URL.Query().Has("include_eds"):
			w.Write(dump)
		case r.URL.Path == prefix+"/clusters" && r.URL.Query().Get("format") == "json":
			w.Write(clusters)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func liveFixtures(t *testing.T) (dump, clusters []byte) {
	t.Helper()
	var err error
	if dump, err = os.ReadFile("../fixtures/live/config_dump.json"); err != nil {
		t.Fatal(err)
	}
	if clusters, err = os.ReadFile("../fixtures/live/clusters.json"); err != nil {
		t.Fatal(err)
	}
	return dump, clusters
}

func TestAdminExplainJoinsLiveHealth(t *testing.T) {
	dump, clusters := liveFixtures(t)
	srv, n := adminServer(t, "/admin-prefix", dump, clusters)
	out, errs, code := run(t, "", "explain", "--admin", srv.URL+"/admin-prefix", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct {
			Name  string
			Hosts []struct {
				Address string
				Share   float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// 10.0.0.2 failed its outlier check in /clusters: the other three
	// share the traffic (3 of 4 healthy x 1.4 is 100% available).
	want := map[string]float64{"10.0.0.1:8080": 1.0 / 3, "10.0.0.2:8080": 0, "10.0.0.3:8080": 1.0 / 3, "10.0.0.4:8080": 1.0 / 3}
	if len(r.Clusters) != 1 || r.Clusters[0].Name != "backend" || len(r.Clusters[0].Hosts) != 4 {
		t.Fatalf("clusters: %+v", r.Clusters)
	}
	for _, h := range r.Clusters[0].Hosts {
		if d := h.Share - want[h.Address]; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s share %v, want %v", h.Address, h.Share, want[h.Address])
		}
	}
	if n.Load() != 2 {
		t.Errorf("%d requests, want 2 (config_dump and clusters)", n.Load())
	}
	// The other commands read the same answers.
	if _, errs, code := run(t, "", "lint", "--admin", srv.URL+"/admin-prefix", "--format", "json"); code != 0 {
		t.Errorf("lint --admin: exit %d: %s", code, errs)
	}
}

func TestAdminRefusals(t *testing.T) {
	dump, clusters := liveFixtures(t)
	srv, _ := adminServer(t, "", dump, clusters)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Second)
	}))
	defer slow.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://192.0.2.1:9901"+r.URL.RequestURI(), http.StatusFound)
	}))
	defer redirect.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		// TEST-NET-1: refused before any connection is tried.
		{[]string{"--admin", "http://192.0.2.1:9901"}, "192.0.2.1:9901: not a loopback address; lbctl reads remote admin endpoints only with --allow-remote"},
		{[]string{"--admin", redirect.URL}, "not a loopback address"},
		{[]string{"--admin", srv.URL + "/wrong-prefix"}, "/wrong-prefix/config_dump: answered 404 Not Found (is the admin prefix right?"},
		{[]string{"--admin", slow.URL, "--timeout", "200ms"}, "no complete answer within 200ms (--timeout)"},
		{[]string{"--admin", "ftp://127.0.0.1"}, `--admin "ftp://127.0.0.1": expected an http:// or https:// URL`},
	} {
		_, errs, code := run(t, "", append([]string{"explain"}, tc.args...)...)
		if code != ExitInput || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, ExitInput, tc.want)
		}
	}
}

// TestAdminLargeDump reads a 10,000-cluster config_dump through --admin.
func TestAdminLargeDump(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"configs":[{"@type":"type.googleapis.com/envoy.admin.v3.ClustersConfigDump","static_clusters":[`)
	for i := range 10000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"cluster":{"@type":"type.googleapis.com/envoy.config.cluster.v3.Cluster","name":"c%d","type":"STATIC",`+
			`"load_assignment":{"cluster_name":"c%d","endpoints":[{"lb_endpoints":[{"endpoint":{"address":{"socket_address":{"address":"10.%d.%d.1","port_value":80}}}}]}]}}}`,
			i, i, i/256, i%256)
	}
	b.WriteString(`]}]}`)
	srv, _ := adminServer(t, "", []byte(b.String()), []byte(`{"cluster_statuses":[]}`))
	out, errs, code := run(t, "", "explain", "--admin", srv.URL, "--cluster", "c9999", "-o", "json")
	if code != 0 || !strings.Contains(out, `"name": "c9999"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// countersServer answers /clusters with rq_total counters that advance by
// a known amount between reads: reads[i] holds the i-th read's counters
// for 10.0.0.1-4 (10.0.0.2 failed its outlier check).
func countersServer(t *testing.T, dump []byte, reads [][4]uint64) *httptest.Server {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/config_dump" {
			w.Write(dump)
			return
		}
		c := reads[min(int(n.Add(1))-1, len(reads)-1)]
		var hosts []string
		for i, v := range c {
			extra := ""
			if i == 1 {
				extra = `, "failed_outlier_check": true`
			}
			hosts = append(hosts, fmt.Sprintf(`{"address": {"socket_address": {"address": "10.0.0.%d", "port_value": 8080}}, `+
				`"stats": [{"name": "rq_total", "value": "%d"}], "health_status": {"eds_health_status": "HEALTHY"%s}}`, i+1, v, extra))
		}
		fmt.Fprintf(w, `{"cluster_statuses": [{"name": "backend", "host_statuses": [%s]}]}`, strings.Join(hosts, ","))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestObserve(t *testing.T) {
	dump, _ := liveFixtures(t)
	type host struct {
		Address   string
		Predicted *float64
		Requests  uint64
		Observed  float64
		Verdict   string
	}
	for _, tc := range []struct {
		name     string
		reads    [][4]uint64
		requests uint64
		verdicts [4]string
	}{
		// 890 requests split 300/0/300/290 against predicted 1/3, 0, 1/3, 1/3.
		{"even", [][4]uint64{{100, 50, 100, 100}, {400, 50, 400, 390}}, 890, [4]string{"consistent", "consistent", "consistent", "consistent"}},
		// 800 requests split 600/0/100/100: |z| is far above 3 for every healthy host.
		{"skewed", [][4]uint64{{0, 0, 0, 0}, {600, 0, 100, 100}}, 800, [4]string{"differs", "consistent", "differs", "differs"}},
		{"idle", [][4]uint64{{5, 5, 5, 5}, {5, 5, 5, 5}}, 0, [4]string{"no requests", "no requests", "no requests", "no requests"}},
	} {
		srv := countersServer(t, dump, tc.reads)
		out, errs, code := run(t, "", "explain", "--admin", srv.URL, "--observe", "10ms", "-o", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errs)
		}
		var r struct {
			Clusters []struct {
				Requests uint64
				Hosts    []host
			}
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		c := r.Clusters[0]
		if c.Requests != tc.requests {
			t.Errorf("%s: %d requests, want %d", tc.name, c.Requests, tc.requests)
		}
		for _, h := range c.Hosts {
			i := int(h.Address[7] - '1')
			want := float64(tc.reads[1][i]-tc.reads[0][i]) / float64(max(tc.requests, 1))
			if h.Verdict != tc.verdicts[i] || math.Abs(h.Observed-want) > 1e-12 {
				t.Errorf("%s: %s observed %v (%s), want %v (%s)", tc.name, h.Address, h.Observed, h.Verdict, want, tc.verdicts[i])
			}
		}
	}
	if _, errs, code := run(t, "", "explain", "../fixtures/aggregate.yaml", "--observe", "1s"); code != ExitUsage || !strings.Contains(errs, "--observe needs --admin") {
		t.Errorf("--observe without --admin: exit %d, %q", code, errs)
	}
}
