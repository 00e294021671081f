package commands

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// subsetDump is a config_dump with a subset cluster; subsetClusters ejects
// 10.3.0.1, one of the two stage=prod hosts.
const (
	subsetDump = `{"configs": [{"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump", "static_clusters": [
 {"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "subsets", "type": "STATIC",
  "lb_subset_config": {"fallback_policy": "ANY_ENDPOINT", "subset_selectors": [{"keys": ["stage"]}]},
  "load_assignment": {"cluster_name": "subsets", "endpoints": [{"lb_endpoints": [
   {"endpoint": {"address": {"socket_address": {"address": "10.3.0.1", "port_value": 80}}}, "metadata": {"filter_metadata": {"envoy.lb": {"stage": "prod"}}}},
   {"endpoint": {"address": {"socket_address": {"address": "10.3.0.2", "port_value": 80}}}, "metadata": {"filter_metadata": {"envoy.lb": {"stage": "prod"}}}},
   {"endpoint": {"address": {"socket_address": {"address": "10.3.0.3", "port_value": 80}}}, "metadata": {"filter_metadata": {"envoy.lb": {"stage": "canary"}}}}]}]}}}]}]}`
	subsetClusters = `{"cluster_statuses": [{"name": "subsets", "host_statuses": [
 {"address": {"socket_address": {"address": "10.3.0.1", "port_value": 80}}, "health_status": {"eds_health_status": "HEALTHY", "failed_outlier_check": true}},
 {"address": {"socket_address": {"address": "10.3.0.2", "port_value": 80}}, "health_status": {"eds_health_status": "HEALTHY"}},
 {"address": {"socket_address": {"address": "10.3.0.3", "port_value": 80}}, "health_status": {"eds_health_status": "HEALTHY"}}]}]}`
)

// TestAdminSameAsSavedAnswers: every command that takes --admin computes
// from the fetched answers exactly what it computes from the same answers
// saved as files (the input names aside), health from /clusters included.
func TestAdminSameAsSavedAnswers(t *testing.T) {
	d, c := liveFixtures(t)
	ring := strings.Replace(string(d), `"ROUND_ROBIN"`, `"RING_HASH"`, 1)
	cases := []struct {
		dump, clusters string
		args           []string
	}{
		{string(d), string(c), []string{"explain", "-o", "json"}},
		{string(d), string(c), []string{"explain"}},
		{string(d), string(c), []string{"lint", "--format", "json"}},
		{string(d), string(c), []string{"sweep", "--cluster", "backend", "--hosts", "-o", "json"}},
		{ring, string(c), []string{"hash", "--cluster", "backend", "--key", "user-1", "-o", "json"}},
		{subsetDump, subsetClusters, []string{"subset", "--cluster", "subsets", "--match", "stage=prod", "-o", "json"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			srv, _ := adminServer(t, "", []byte(tc.dump), []byte(tc.clusters))
			dir := t.TempDir()
			dumpFile, clustersFile := filepath.Join(dir, "config_dump.json"), filepath.Join(dir, "clusters.json")
			os.WriteFile(dumpFile, []byte(tc.dump), 0o644)
			os.WriteFile(clustersFile, []byte(tc.clusters), 0o644)
			live, errs, code := run(t, "", append(tc.args, "--admin", srv.URL)...)
			if code != 0 {
				t.Fatalf("--admin: exit %d: %s", code, errs)
			}
			saved, errs, code := run(t, "", append(tc.args, dumpFile, clustersFile)...)
			if code != 0 {
				t.Fatalf("files: exit %d: %s", code, errs)
			}
			host := strings.TrimPrefix(srv.URL, "http://")
			live = strings.NewReplacer(host+"/config_dump?include_eds", dumpFile, host+"/clusters?format=json", clustersFile).Replace(live)
			if live != saved {
				t.Errorf("--admin output differs from the saved answers':\n%s\nvs\n%s", live, saved)
			}
		})
	}
}

// TestNoRequestWithoutLiveFlag: a configuration whose hosts point at a
// listening socket is read, explained and linted without a connection to
// it: only --admin or --csds make lbctl connect anywhere.
func TestNoRequestWithoutLiveFlag(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte(fmt.Sprintf(`name: near
type: STATIC
lb_policy: RING_HASH
load_assignment:
  cluster_name: near
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: %d}}}
`, port)), 0o644)
	for _, args := range [][]string{
		{"explain", file}, {"lint", file}, {"hash", file, "--cluster", "near"}, {"sweep", file, "--cluster", "near"},
	} {
		if _, errs, code := run(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	// Connect once ourselves: the accept queue is in order, so when ours
	// is accepted any connection lbctl made was too.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	for i := 0; i < 500 && accepted.Load() == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := accepted.Load(); n != 1 {
		t.Errorf("the listener saw %d connections, want only the test's own", n)
	}
}

func TestAdminRefusedAndNotJSON(t *testing.T) {
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html><body>Envoy Admin</body></html>"))
	}))
	defer html.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for _, tc := range []struct{ url, want string }{
		{closedURL, "/config_dump: connection refused: is Envoy's admin listening there?"},
		{html.URL, "/config_dump?include_eds:1:1: not an Envoy resource lbctl reads"},
	} {
		_, errs, code := run(t, "", "explain", "--admin", tc.url)
		if code != ExitInput || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, %q; want exit 3 and %q", tc.url, code, errs, tc.want)
		}
	}
}
