package commands

import (
	"os"
	"strings"
	"testing"
)

// Usage errors: exit 2, nothing on stdout, one line on stderr starting
// "lbctl: " and naming the bad value (and the closest valid one).
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "../fixtures/aggregate.yaml", "--active-requests", "10.0.0.99:80=5"},
			"lbctl: --active-requests 10.0.0.99:80=5: no host 10.0.0.99:80 in any cluster; the closest host is 10.0.0.9:8080\n"},
		{[]string{"explain", "../fixtures/aggregate.yaml", "--local-cluster", "primery"},
			"lbctl: --local-cluster \"primery\": no such cluster; the closest cluster is primary\n"},
		// A value with a dot before ": " once passed for a file position
		// and lost its prefix.
		{[]string{"explain", "../fixtures/aggregate.yaml", "--zone", "a.b"},
			"lbctl: --zone \"a.b\": expected REGION/ZONE or REGION/ZONE/SUB_ZONE\n"},
		{[]string{"explain", "../fixtures/aggregate.yaml", "--active-requests", "10.0.0.1:8080=x"},
			"lbctl: --active-requests \"10.0.0.1:8080=x\": expected ADDRESS=N, e.g. 10.0.0.1:80=5\n"},
	} {
		out, errs, code := run(t, "", c.args...)
		if code != ExitUsage || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
	// A known address and cluster still work.
	if _, errs, code := run(t, "", "explain", "../fixtures/aggregate.yaml", "--active-requests", "10.0.0.1:8080=3", "--local-cluster", "primary"); code != 0 {
		t.Errorf("valid what-if: exit %d: %s", code, errs)
	}
}

// Input without a cluster is not an empty answer with exit 0: it says
// what was read and what to add, exit 3, nothing on stdout.
func TestNothingToExplain(t *testing.T) {
	admin, err := os.ReadFile("testdata/empty/admin.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"explain", "testdata/empty/routes.yaml"},
			"testdata/empty/routes.yaml: read 1 RouteConfiguration but no cluster, so there is nothing to explain; add the file that defines the clusters (a Cluster, a list of clusters, a Bootstrap, or an admin /config_dump)\n"},
		{"", []string{"explain", "-o", "json", "testdata/empty/eds.yaml"},
			"testdata/empty/eds.yaml: read 1 ClusterLoadAssignment (EDS, for web) but no cluster, so there is nothing to explain; EDS endpoints are joined to their cluster by cluster_name: add the file that defines web\n"},
		{string(admin), []string{"explain"},
			"<stdin>: read live host health of 1 cluster (admin /clusters, for web) but no cluster, so there is nothing to explain; /clusters?format=json carries host health only: add the admin /config_dump?include_eds of the same Envoy\n"},
	} {
		out, errs, code := run(t, c.stdin, c.args...)
		if code != ExitInput || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errs, c.want)
		}
	}
}

// Load warnings of one kind are counted on one line; --verbose lists
// them, --quiet drops them. stdout is the same in all three.
func TestWarningsGrouped(t *testing.T) {
	const f = "testdata/warnings/many.yaml"
	legacy := f + `:52:3: warning: "hosts" is v2 syntax, removed in v3; read as load_assignment endpoints` + "\n"
	out, errs, code := run(t, "", "explain", f)
	if code != 0 || errs != "lbctl: warning: 6 resources of unmodelled extension types skipped (first at "+f+":5:26); --verbose to list\n"+legacy {
		t.Errorf("default: exit %d, stderr:\n%s", code, errs)
	}
	vout, verrs, _ := run(t, "", "explain", f, "--verbose")
	if n := strings.Count(verrs, "\n"); n != 7 || !strings.Contains(verrs, f+`:45:26: warning: unknown type "type.googleapis.com/acme.Ext5"`) || vout != out {
		t.Errorf("--verbose: %d lines:\n%s", n, verrs)
	}
	qout, qerrs, _ := run(t, "", "-q", "explain", f)
	if qerrs != "" || qout != out {
		t.Errorf("--quiet: stderr %q", qerrs)
	}
}
