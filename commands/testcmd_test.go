package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lbctl/lbctl/fixtures/gen"
)

// testJSON is `lbctl test --format json` as the contract writes it.
type testJSON struct {
	Tests []struct {
		Name       string
		Passed     *bool
		NotChecked []string `json:"not_checked"`
	}
	Summary struct {
		Passed, Failed int
		NotChecked     int `json:"not_checked"`
	}
}

func decodeTest(t *testing.T, out string) testJSON {
	t.Helper()
	var got testJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return got
}

// Envoy's router_check_tool suites, rewritten as our own fixtures, pass
// through `lbctl test` in the tool's form: every cluster and virtual host
// check holds, and the fields lbctl does not check are named, never passed.
func TestRouterCheckSuites(t *testing.T) {
	want := map[string]int{"routes": 13, "headers": 9, "redirect": 10, "weighted": 5, "clusterheader": 3}
	for suite, n := range want {
		dir := "../fixtures/route/checktool/"
		out, errOut, code := run(t, "", "test", dir+suite+".yaml", "--tests", dir+suite+".tests.json", "--format", "json")
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s%s", suite, code, errOut, out)
		}
		got := decodeTest(t, out)
		if len(got.Tests) != n || got.Summary.Passed != n || got.Summary.Failed != 0 || got.Summary.NotChecked != 2 {
			t.Errorf("%s: %+v", suite, got.Summary)
		}
		for i, r := range got.Tests {
			if r.Passed == nil || !*r.Passed {
				t.Errorf("%s: %s did not pass", suite, r.Name)
			}
			if nc := strings.Join(r.NotChecked, ","); i == 0 && nc != "path_rewrite,request_header_matches" || i > 0 && nc != "" {
				t.Errorf("%s: %s: not_checked %q", suite, r.Name, nc)
			}
		}
	}
}

// A router_check test whose cluster differs fails (exit 1): the tool
// compares names, so a cluster the config does not define is no input error.
func TestRouterCheckFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	tests := `{"tests": [{"test_name": "wrong", "input": {"authority": "api.shop.example", "path": "/api/leads/me"}, "validate": {"cluster_name": "backnd"}}]}`
	if err := os.WriteFile(path, []byte(tests), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "test", "../fixtures/route/checktool/routes.yaml", "--tests", path)
	if code != ExitFindings || errOut != "" || !strings.Contains(out, "FAIL wrong\n  cluster_name: got \"backend\", want backnd") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

// lbctl test --init, then lbctl test over the same files, passes.
func TestTestInitRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gen.json")
	if err := os.WriteFile(cfg, gen.Dump(50), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, files := range [][]string{{cfg}, {"../fixtures/priority-two-levels.yaml", "../fixtures/aggregate.yaml", "../fixtures/hash/maglev-basic.yaml"}} {
		out, errOut, code := run(t, "", append([]string{"test", "--init"}, files...)...)
		if code != ExitOK {
			t.Fatalf("--init %v: exit %d: %s", files, code, errOut)
		}
		tests := filepath.Join(dir, "tests.yaml")
		if err := os.WriteFile(tests, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		res, errOut, code := run(t, "", append(append([]string{"test"}, files...), "--tests", tests, "--format", "json")...)
		got := decodeTest(t, res)
		if code != ExitOK || got.Summary.Failed != 0 || got.Summary.Passed < len(files) {
			t.Errorf("%v: exit %d, %+v: %s", files, code, got.Summary, errOut)
		}
	}
}

// Exit codes and input errors through the CLI.
func TestTestCommandErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"test", "../fixtures/aggregate.yaml"}, ExitUsage, "lbctl: test: --tests TESTS is required"},
		{[]string{"test", "../fixtures/aggregate.yaml", "--tests", "../fixtures/tests/ok.yaml", "--format", "xml"}, ExitUsage, `--format "xml"`},
		{[]string{"test", "--init", "../fixtures/aggregate.yaml", "--tests", "x.yaml"}, ExitUsage, "--init prints a TESTS file"},
		{[]string{"test", "../fixtures/priority-two-levels.yaml", "--tests", "../fixtures/tests/broken/unknown-names.yaml"}, ExitInput,
			`../fixtures/tests/broken/unknown-names.yaml:3:12: no cluster "backnd"; the closest cluster is backend`},
		{[]string{"test", "../fixtures/priority-two-levels.yaml", "../fixtures/aggregate.yaml", "--tests", "../fixtures/tests/failing.yaml"}, ExitFindings, ""},
	} {
		out, errOut, code := run(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", c.args, code, errOut, out)
		}
	}
}

// 1,000 tests over the generated 10,000-cluster dump: each cluster's
// model is built once (model.Get's memo), so the run takes seconds.
func TestTestThousandOverGeneratedDump(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-cluster dump")
	}
	dir := t.TempDir()
	cfg, tests := filepath.Join(dir, "dump-10k.json"), filepath.Join(dir, "tests.yaml")
	if err := os.WriteFile(cfg, gen.Dump(10000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tests, thousandTests(), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, errOut, code := run(t, "", "test", cfg, "--tests", tests, "--format", "json")
	took := time.Since(start)
	got := decodeTest(t, out)
	if code != ExitOK || got.Summary.Passed != 1000 {
		t.Fatalf("exit %d, %+v: %s", code, got.Summary, errOut)
	}
	if took > 30*time.Second {
		t.Errorf("1,000 tests took %v", took)
	}
	t.Logf("1,000 tests over 10,000 clusters: %v", took)
}

// thousandTests are 1,000 tests over 500 clusters of gen.Dump: each
// cluster twice, once as is and once with its P0 set to half healthy.
func thousandTests() []byte {
	var b strings.Builder
	b.WriteString("tests:\n")
	for i := 0; i < 500; i++ {
		name := fmt.Sprintf("svc-%05d", i*20)
		fmt.Fprintf(&b, "- name: %s as is\n  cluster: %s\n  expect:\n    total_panic: false\n    max_host_share: \"<= 1\"\n", name, name)
		fmt.Fprintf(&b, "- name: %s half healthy\n  cluster: %s\n  given: {set_health: [\"%s/0=50%%\"]}\n  expect:\n    total_panic: false\n", name, name, name)
	}
	return []byte(b.String())
}
