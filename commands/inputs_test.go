package commands

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestWrappers: every wrapper a control plane or Kubernetes puts around
// xDS resources is read whole: explain lists its clusters, and lint checks
// them with positions in the original file (each fixture has a finding at
// a known line: a duplicate endpoint address, LB1605, or a ring hash
// cluster no route gives a hash policy, LB1402).
func TestWrappers(t *testing.T) {
	cases := []struct {
		file     string
		clusters []string
		rule     string
		line     int // of the rule's finding
	}{
		{"cilium-envoy-config.yaml", []string{"shop/cart"}, "LB1605", 26},
		{"cilium-list.yaml", []string{"edge/api"}, "LB1605", 22},
		{"egctl-translate.yaml", []string{"httproute/default/web/rule/0"}, "LB1605", 19},
		{"egctl-config.yaml", []string{"httproute/default/web/rule/0"}, "LB1605", 20},
		{"kgateway-map.yaml", []string{"kube_default_cart_8080"}, "LB1402", 7},
		{"gloo-snapshot.yaml", []string{"default-cart-8080_gloo-system"}, "LB1402", 7},
		{"v2alpha-dump.json", []string{"outbound|9080||ratings"}, "LB1402", 12},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := "../fixtures/inputs/" + c.file
			code, out, errs := runLBCTL("explain", "-o", "json", path)
			if code != ExitOK {
				t.Fatalf("explain: exit %d: %s", code, errs)
			}
			var rep struct {
				Clusters []struct{ Name string } `json:"clusters"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, cl := range rep.Clusters {
				names = append(names, cl.Name)
			}
			if !reflect.DeepEqual(names, c.clusters) {
				t.Errorf("explain lists %q, want %q", names, c.clusters)
			}
			fs := lintJSON(t, path)
			found := false
			for _, f := range fs {
				if f.Rule == c.rule && f.File == path && f.Line == c.line {
					found = true
				}
				if f.Rule == "LB0007" || f.Rule == "LB0003" || f.Rule == "LB0012" {
					t.Errorf("unexpected %s at %d: %s", f.Rule, f.Line, f.Message)
				}
			}
			if !found {
				t.Errorf("no %s at %s:%d in %+v", c.rule, path, c.line, fs)
			}
		})
	}
}

// TestUnreadableInputs: a ClusterLoadAssignment without cluster_name is
// read and reported (LB1015), not rejected as no Envoy resource; a shape
// lbctl does not read is one error naming what was expected.
func TestUnreadableInputs(t *testing.T) {
	fs := lintJSON(t, "../fixtures/inputs/cla-no-name.yaml")
	if len(fs) == 0 || fs[len(fs)-1].Rule != "LB1015" || fs[len(fs)-1].Line != 2 {
		t.Errorf("cla-no-name.yaml: want LB1015 at line 2, got %+v", fs)
	}
	for _, f := range fs {
		if f.Rule == "LB0007" {
			t.Errorf("cla-no-name.yaml read as no Envoy resource: %s", f.Message)
		}
	}
	// A named file holding no Envoy config: one error naming what it holds;
	// with --skip-non-envoy, a count on stderr and exit 0.
	file := "../fixtures/broken/kubernetes-deployment.yaml"
	// Said once: a finding on stdout, not again on stderr.
	code, out, errs := runLBCTL("lint", file)
	if want := file + ":1:1: info LB0007 not an Envoy resource lbctl reads"; code != ExitInput || errs != "" ||
		strings.Count(out, want) != 1 || !strings.Contains(out, "found only Kubernetes Deployment envoy") {
		t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d and %q once on stdout", file, code, out, errs, ExitInput, want)
	}
	code, out, errs = runLBCTL("lint", "--skip-non-envoy", file)
	if want := "lbctl: skipped 1 file holding no Envoy config (" + file + ")\n"; code != 0 || errs != want || out != "" {
		t.Errorf("--skip-non-envoy %s: exit %d, stdout %q, stderr %q; want 0, nothing, %q", file, code, out, errs, want)
	}
	// A key of a resource map that holds no Envoy config: skipped with one
	// notice naming it, the clusters still read.
	fs = lintJSON(t, "../fixtures/broken/resource-map-extra-key.yaml")
	if len(fs) != 1 || fs[0].Rule != "LB0007" || fs[0].Severity != "info" || fs[0].Line != 5 ||
		fs[0].Message != "skipped what is not Envoy config: \"VirtualHosts\"" {
		t.Errorf("resource-map-extra-key.yaml: want one LB0007 info at line 5 naming VirtualHosts, got %+v", fs)
	}
}

type lintFinding struct {
	Rule     string `json:"rule"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

func lintJSON(t *testing.T, args ...string) []lintFinding {
	t.Helper()
	_, out, _ := runLBCTL(append([]string{"lint", "--format", "json", "--fail-on", "none"}, args...)...)
	var rep struct {
		Findings []lintFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("lint json: %v\n%s", err, out)
	}
	return rep.Findings
}
