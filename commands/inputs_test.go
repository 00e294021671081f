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
	cases := map[string]string{
		"../fixtures/broken/kubernetes-deployment.yaml":  "Kubernetes apps/v1 Deployment is not Envoy config lbctl reads; expected a CiliumEnvoyConfig, a CiliumClusterwideEnvoyConfig, or a List of them",
		"../fixtures/broken/resource-map-extra-key.yaml": "\"VirtualHosts\" is not a resource kind lbctl reads in a map of resources; expected clusters, endpoints, listeners or routes (any case)",
	}
	for file, msg := range cases {
		// Said once: a finding on stdout, not again on stderr.
		code, out, errs := runLBCTL("lint", file)
		if code != ExitInput {
			t.Errorf("%s: exit %d, want %d", file, code, ExitInput)
		}
		if want := file + ":"; !strings.Contains(out, want) || strings.Count(out, msg) != 1 || errs != "" {
			t.Errorf("%s: stdout %q, stderr %q, want the file and %q once on stdout", file, out, errs, msg)
		}
	}
}

type lintFinding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
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
