package commands

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const wrappers = "../fixtures/inputs/wrappers/"

// at is one finding as "RULE severity line:col".
type at struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

func (a at) String() string { return fmt.Sprintf("%s %s %d:%d", a.Rule, a.Severity, a.Line, a.Column) }

// lintAt is lint's findings on one file, and its exit code.
func lintAt(t *testing.T, file string) ([]string, int) {
	t.Helper()
	code, out, errs := runLBCTL("lint", "--format", "json", wrappers+file)
	var rep struct{ Findings []at }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%s: %v\n%s\n%s", file, err, out, errs)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.String())
	}
	return got, code
}

// explainAt is where explain places each cluster ("name file:line:col").
func explainAt(t *testing.T, file string) []string {
	t.Helper()
	code, out, errs := runLBCTL("explain", "-o", "json", wrappers+file)
	if code != ExitOK {
		t.Fatalf("explain %s: exit %d: %s", file, code, errs)
	}
	var rep struct {
		Clusters []struct{ Name, File string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rep.Clusters {
		got = append(got, c.Name+" "+strings.TrimPrefix(c.File, wrappers))
	}
	return got
}

// TestWrapperShapes: each shape Envoy config is kept in is read by the one
// walk (analyze/config/find.go), its findings placed in the user's file and
// its exit code set by the Envoy findings alone. Positions are the file's
// own: inside a ConfigMap's block string, the string's lines and columns as
// they stand in the ConfigMap.
func TestWrapperShapes(t *testing.T) {
	cases := []struct {
		file     string
		findings []string
		code     int
		clusters []string // explain's placement; nil when Envoy rejects one
	}{
		{"configmap.yaml", []string{"LB1408 warning 15:53", "LB1605 info 22:15"}, ExitOK,
			[]string{"cache configmap.yaml:11:9"}},
		// Deployment and Service: one notice naming both; the ConfigMap's
		// cluster read with its positions.
		{"manifest.yaml", []string{"LB0007 info 4:7", "LB1006 error 39:38"}, ExitFindings,
			[]string{"api manifest.yaml:31:9"}},
		// Items {name, value} carrying each resource as a string (a
		// control plane's CRD): block and single-line JSON strings, each
		// placed where the string stands.
		{"carrier-items.yaml", []string{"LB1408 warning 17:55", "LB1605 info 24:17"}, ExitOK,
			[]string{"cache carrier-items.yaml:13:11", "api carrier-items.yaml:26:16"}},
		{"typeurl-map.json", []string{"LB1505 warning 10:47"}, ExitOK, []string{"payments typeurl-map.json:3:17"}},
		{"kind-map.yaml", []string{"LB1010 error 12:51"}, ExitFindings, []string{"search kind-map.yaml:3:3"}},
		// The real findings (a route to an undefined cluster with
		// validate_clusters off, a weighted cluster's metadata_match on a
		// cluster without subsets) and one notice naming meshStatus.
		{"vendor-dump.yaml", []string{"LB0007 info 3:1", "LB1801 error 35:32", "LB1306 warning 38:17"}, ExitFindings,
			[]string{"web vendor-dump.yaml:7:3"}},
		// Templates: one notice at the first placeholder; a finding that
		// depends on no placeholder is kept, the duplicate $server_port
		// endpoints (unknown ports) are not reported as duplicates, and
		// HOST_IP is not a hostname in a STATIC cluster.
		{"template-env.yaml", []string{"LB1108 error 8:26", "LB0001 info 13:59"}, ExitFindings, nil},
		{"template-dollar.yaml", []string{"LB1010 error 7:57", "LB0001 info 12:81"}, ExitFindings, []string{"app template-dollar.yaml:4:5"}},
		{"template-bare.yaml", []string{"LB1501 info 10:9", "LB0001 info 15:26"}, ExitOK, []string{"local template-bare.yaml:4:5"}},
		{"template-helm.yaml", []string{"LB1109 error 8:36", "LB0001 info 13:9"}, ExitFindings, nil},
		// Envoy Gateway's EnvoyPatchPolicy: the whole cluster a patch adds;
		// the patch of part of a listener named in the one notice.
		{"patch-policy.yaml", []string{"LB1513 warning 18:29", "LB0007 info 25:5"}, ExitOK, []string{"ratelimit patch-policy.yaml:15:9"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got, code := lintAt(t, c.file)
			if strings.Join(got, ", ") != strings.Join(c.findings, ", ") || code != c.code {
				t.Errorf("lint: %q exit %d, want %q exit %d", got, code, c.findings, c.code)
			}
			if c.clusters == nil {
				return
			}
			if got := explainAt(t, c.file); strings.Join(got, ", ") != strings.Join(c.clusters, ", ") {
				t.Errorf("explain places %q, want %q", got, c.clusters)
			}
		})
	}
}

// TestWrapperRejectedPlacement: a cluster Envoy rejects is an input error
// placed in the wrapper's file too.
func TestWrapperRejectedPlacement(t *testing.T) {
	for file, want := range map[string]string{
		"template-env.yaml":  wrappers + "template-env.yaml:8:26: cluster \"backend\": Envoy rejects this cluster: ring hash: minimum_ring_size (1024) > maximum_ring_size (12)",
		"template-helm.yaml": wrappers + "template-helm.yaml:8:36: cluster \"search\": Envoy rejects this cluster: The table size of maglev must be prime number",
	} {
		code, _, errs := runLBCTL("explain", wrappers+file)
		if code != ExitInput || !strings.Contains(errs, want) {
			t.Errorf("explain %s: exit %d, stderr %q; want %d and %q", file, code, errs, ExitInput, want)
		}
	}
}

// TestMixedFolder: a folder of Envoy configs beside a Deployment, a
// Service, Helm values (with a resources: map, not a DiscoveryResponse's
// list) and a CI workflow exits by the Envoy findings alone, with one
// stderr line counting what was skipped; the same with the files named one
// by one and --skip-non-envoy (as the pre-commit hook passes them).
func TestMixedFolder(t *testing.T) {
	dir := wrappers + "mixed"
	named := []string{dir + "/chart/values.yaml", dir + "/ci/build.yml", dir + "/deploy/deployment.yaml",
		dir + "/deploy/service.yaml", dir + "/envoy/cache.json", dir + "/envoy/edge.yaml"}
	skipped := "lbctl: skipped 4 files holding no Envoy config (first " + dir + "/chart/values.yaml); --verbose names each\n"
	finding := dir + "/envoy/edge.yaml:8:41: warning LB1505 "
	for _, args := range [][]string{{dir}, append([]string{"--skip-non-envoy"}, named...)} {
		for _, failOn := range []struct {
			level string
			code  int
		}{{"error", ExitOK}, {"warning", ExitFindings}} {
			a := append([]string{"lint", "--fail-on", failOn.level}, args...)
			code, out, errs := runLBCTL(a...)
			if code != failOn.code || errs != skipped || strings.Count(out, ": warning ")+strings.Count(out, ": error ")+strings.Count(out, ": info ") != 1 ||
				!strings.Contains(out, finding) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, only %q, stderr %q", a, code, out, errs, failOn.code, finding, skipped)
			}
		}
	}
	// Named without --skip-non-envoy, a file holding no Envoy config is an
	// input error (exit 3), said once.
	code, out, errs := runLBCTL("lint", dir+"/chart/values.yaml", dir+"/envoy/edge.yaml")
	if code != ExitInput || strings.Count(out, "LB0007") != 1 || errs != "" {
		t.Errorf("named values.yaml: exit %d, stdout %q, stderr %q; want %d and one LB0007", code, out, errs, ExitInput)
	}
}
