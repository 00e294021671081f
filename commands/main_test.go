package commands

import (
	"bytes"
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/commands/cmdutil"
)

// update rewrites every golden file from the current output:
// fixtures/diff/*/expected.*, commands/quick/*_gen.go, the README's console
// outputs that have no … elision and the SVG outlines.
var update = flag.Bool("update", false, "rewrite the golden files from the current output")

// runEnv is the one way tests run lbctl: in-process, with stdin and env
// (a nil field: the process's), returning stdout, stderr and the exit
// code. Tests run in commands/, so fixture paths start with ../; every
// other helper below is a shorthand for it.
func runEnv(stdin string, env cmdutil.Env, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(append([]string{"lbctl"}, args...), strings.NewReader(stdin), &out, &errb, env)
	return out.String(), errb.String(), code
}

// runCLI is runEnv in the environment getenv reads (nil: the process's).
func runCLI(stdin string, getenv func(string) string, args ...string) (stdout, stderr string, code int) {
	return runEnv(stdin, cmdutil.Env{Getenv: getenv}, args...)
}

// only is an environment holding vars and nothing else.
func only(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// run is runCLI with the process's environment.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCLI(stdin, nil, args...)
}

func TestBadInputPositionsAndExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string // on stderr
	}{
		{"malformed YAML", []string{"explain", "../fixtures/broken/malformed.yaml"}, ExitInput, "../fixtures/broken/malformed.yaml:3:12: invalid YAML"},
		// JSON only: protobuf's JSON parser rejects a field set twice (YAML keeps the last value).
		{"duplicate key", []string{"explain", "../fixtures/broken/duplicate-key.json"}, ExitInput, "../fixtures/broken/duplicate-key.json:4:2: duplicate key \"lb_policy\""},
		{"unknown field", []string{"explain", "../fixtures/broken/unknown-field.yaml"}, ExitInput, "../fixtures/broken/unknown-field.yaml:5:3: unknown field \"maximum_ring_sise\""},
		{"wrong type", []string{"explain", "../fixtures/broken/wrong-type.yaml"}, ExitInput, "../fixtures/broken/wrong-type.yaml:6:12: expected a number"},
		{"negative weight", []string{"explain", "../fixtures/broken/negative-weight.yaml"}, ExitInput, "../fixtures/broken/negative-weight.yaml:9:30: expected a non-negative integer"},
		{"missing file", []string{"explain", "../fixtures/nope.yaml"}, ExitInput, "../fixtures/nope.yaml: no such file or directory"},
		{"unknown cluster", []string{"explain", "../fixtures/aggregate.yaml", "--cluster", "nope"}, ExitUsage, `--cluster "nope": no such cluster`},
		{"unknown flag", []string{"explain", "--bogus"}, ExitUsage, "lbctl: unknown flag --bogus for lbctl explain"},
		{"bad output", []string{"-o", "xml", "explain"}, ExitUsage, `expected one of text, json, yaml`},
		{"bad set-health", []string{"explain", "../fixtures/aggregate.yaml", "--set-health", "primary=x"}, ExitUsage, "not a percentage"},
		{"unknown command", []string{"frobnicate"}, ExitUsage, `unknown command "frobnicate"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := run(t, "", c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
			}
			if !strings.Contains(errs, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, errs)
			}
			if out != "" {
				t.Errorf("stdout must stay empty on errors, got:\n%s", out)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic:") {
				t.Errorf("stack trace on stderr:\n%s", errs)
			}
		})
	}
}

// TestExplainJSONContract checks the field names of contract.md's explain
// JSON on the aggregate example, and flags typed after the file argument.
func TestExplainJSONContract(t *testing.T) {
	out, errs, code := run(t, "", "explain", "../fixtures/aggregate.yaml", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	clusters := doc["clusters"]
	if len(clusters) != 4 {
		t.Fatalf("%d clusters", len(clusters))
	}
	for _, k := range []string{"name", "lb_policy", "overprovisioning_factor", "panic_threshold",
		"normalized_total_availability", "total_panic", "priorities", "hosts", "notes"} {
		for _, c := range clusters {
			if _, ok := c[k]; !ok {
				t.Errorf("cluster %v lacks %q", c["name"], k)
			}
		}
	}
	agg := clusters[0]["aggregate"].(map[string]any)
	for _, k := range []string{"clusters", "levels", "cluster_load", "total_panic"} {
		if _, ok := agg[k]; !ok {
			t.Errorf("aggregate lacks %q", k)
		}
	}
	level := agg["levels"].([]any)[0].(map[string]any)
	for _, k := range []string{"cluster", "priority", "health", "healthy_load", "degraded_load", "panic"} {
		if _, ok := level[k]; !ok {
			t.Errorf("aggregate level lacks %q", k)
		}
	}
	loads := map[string]float64{}
	for _, cl := range agg["cluster_load"].([]any) {
		m := cl.(map[string]any)
		loads[m["cluster"].(string)] = m["load"].(float64)
	}
	if loads["primary"] != 70 || loads["secondary"] != 30 || loads["tertiary"] != 0 {
		t.Errorf("cluster_load %v, want primary 70, secondary 30 (seed 000 {{20,20,10},{25,25}})", loads)
	}
	p := clusters[1]["priorities"].([]any)[0].(map[string]any)
	for _, k := range []string{"priority", "hosts", "healthy", "degraded", "excluded", "health", "degraded_availability", "panic", "healthy_load", "degraded_load"} {
		if _, ok := p[k]; !ok {
			t.Errorf("priority lacks %q", k)
		}
	}
	h := clusters[1]["hosts"].([]any)[0].(map[string]any)
	for _, k := range []string{"address", "hostname", "priority", "region", "zone", "sub_zone", "health", "weight", "share"} {
		if _, ok := h[k]; !ok {
			t.Errorf("host lacks %q", k)
		}
	}
}

func TestExplainBuiltInExample(t *testing.T) {
	out, errs, code := run(t, "", "explain")
	if code != 0 || !strings.Contains(errs, "built-in example") || !strings.Contains(out, "aggregate_cluster") {
		t.Errorf("exit %d\nstderr: %s\nstdout: %s", code, errs, out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("escape sequences in piped output")
	}
}

func TestExplainStdin(t *testing.T) {
	doc := "name: c\nconnect_timeout: 1s\nload_assignment:\n  cluster_name: c\n  endpoints:\n  - lb_endpoints:\n    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}\n"
	out, errs, code := run(t, doc, "explain", "-", "-o", "yaml")
	if code != 0 || !strings.Contains(out, "name: c") || !strings.Contains(out, "share: 1") {
		t.Errorf("exit %d\nstderr: %s\nstdout: %s", code, errs, out)
	}
}

func TestExplainSetHealthText(t *testing.T) {
	out, _, code := run(t, "", "explain", "../fixtures/priority-two-levels.yaml", "--set-health", "backend/0=30")
	// 3 of 10 healthy: health 42, so P0 keeps 42% and P1 gets 58%.
	if code != 0 || !strings.Contains(out, "42%") || !strings.Contains(out, "58%") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestExplainOriginalDstAndLeastRequest(t *testing.T) {
	out, _, code := run(t, "", "explain", "../fixtures/locality/original-dst.yaml")
	if code != 0 || !strings.Contains(out, "makes its hosts per request (ORIGINAL_DST)") || strings.Contains(out, "PANIC") {
		t.Errorf("original dst: exit %d\n%s", code, out)
	}
	// P2C with replacement over 3 hosts with 5, 1 and 0 active requests:
	// the idle host wins unless both picks miss it, 1-(2/3)² = 5/9; the host
	// with 1 wins when both picks are among the other two and one is it,
	// (2/3)²-(1/3)² = 3/9; the busiest only when picked twice, 1/9.
	out, errs, code := run(t, "", "explain", "../fixtures/locality/least-request.yaml", "-o", "json",
		"--active-requests", "10.0.0.1:80=5", "--active-requests", "10.0.0.2:80=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Clusters []struct {
			Hosts []struct {
				Address string
				Share   float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"10.0.0.1:80": 1.0 / 9, "10.0.0.2:80": 3.0 / 9, "10.0.0.3:80": 5.0 / 9}
	for _, h := range doc.Clusters[0].Hosts {
		if d := h.Share - want[h.Address]; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s share %v, want %v", h.Address, h.Share, want[h.Address])
		}
	}
}
