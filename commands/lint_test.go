package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lbctl/lbctl/commands/help"
)

// flagValues are the values completion offers for COMMAND --FLAG: those
// its validator accepts.
func flagValues(t *testing.T, command, flag string) []string {
	t.Helper()
	root := New(nil, nil, nil)
	tree := help.Tree(root)
	for i, c := range root.Commands {
		if c.Name != command {
			continue
		}
		for _, f := range tree.Commands[i].Flags {
			if f.Names[0] == flag && len(f.Values) > 0 {
				return f.Values
			}
		}
	}
	t.Fatalf("lbctl %s --%s offers no values", command, flag)
	return nil
}

func runLBCTL(args ...string) (int, string, string) {
	out, errs, code := runCLI("", nil, args...)
	return code, out, errs
}

// TestLintExitCodes: findings exit 1, --fail-on none 0, a clean file 0,
// a usage error 2 and an unparsable file 3, in every format.
func TestLintExitCodes(t *testing.T) {
	bad := "../fixtures/lint/LB1101-bad.yaml"
	good := "../fixtures/lint/LB1101-good.yaml"
	for _, format := range flagValues(t, "lint", "format") {
		cases := []struct {
			args []string
			want int
		}{
			{[]string{"lint", "--format", format, bad}, ExitFindings},
			{[]string{"lint", bad, "--format", format, "--fail-on", "none"}, ExitOK},
			{[]string{"lint", "--format", format, good}, ExitOK},
			{[]string{"lint", "--format", format, "--fail-on", "sometimes", bad}, ExitUsage},
			{[]string{"lint", "--format", format, "--disable", "LB9999", bad}, ExitUsage},
			{[]string{"lint", "--format", format, "--no-such-flag", bad}, ExitUsage},
			{[]string{"lint", "--format", format, "../fixtures/lint/LB0001-bad.yaml"}, ExitInput},
			{[]string{"lint", "--format", format, "--disable", "origdst-lb-policy", bad}, ExitOK},
		}
		for _, c := range cases {
			if code, _, stderr := runLBCTL(c.args...); code != c.want {
				t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.want, stderr)
			}
		}
	}
	if code, _, _ := runLBCTL("lint", "--format", "xml", bad); code != ExitUsage {
		t.Errorf("--format xml: exit %d, want 2", code)
	}
	// --fail-on warning makes a warning fail.
	if code, _, _ := runLBCTL("lint", "--fail-on", "warning", "../fixtures/lint/LB1203-bad.yaml"); code != ExitFindings {
		t.Errorf("--fail-on warning with a warning: exit %d, want 1", code)
	}
}

func TestLintTextFormat(t *testing.T) {
	_, out, _ := runLBCTL("lint", "../fixtures/lint/LB1203-bad.yaml")
	want := `../fixtures/lint/LB1203-bad.yaml:8:21: warning LB1203 aggregate cluster "agg": child cluster "typo-secondary" is not defined [aggregate-unknown-child]
        clusters: [web, typo-secondary]
                        ^
    hint: Fix the child's name, or load the file that defines it.
`
	if out != want {
		t.Errorf("text output:\n%s\nwant:\n%s", out, want)
	}
	_, out, _ = runLBCTL("lint", "--format", "github", "../fixtures/lint/LB1203-bad.yaml")
	if !strings.HasPrefix(out, "::warning file=../fixtures/lint/LB1203-bad.yaml,line=8,col=21,title=LB1203 aggregate-unknown-child::") {
		t.Errorf("github output: %q", out)
	}
}

func TestLintJSON(t *testing.T) {
	_, out, _ := runLBCTL("lint", "--format", "json", "../fixtures/lint/LB1202-bad.yaml")
	var got struct { // contract.md's lint JSON
		Findings []struct {
			Rule, Name, Severity string
			Line, Column         int
		}
		Summary struct{ Error, Warning int }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Findings) != 4 || got.Summary.Error != 1 || got.Summary.Warning != 3 {
		t.Errorf("json: %+v", got)
	}
	f := got.Findings[0]
	if f.Rule != "LB1202" || f.Name != "aggregate-cycle" || f.Line != 8 || f.Column != 16 || f.Severity != "warning" {
		t.Errorf("first finding %+v", f)
	}
}

// TestSARIFSchema validates SARIF output against the official SARIF 2.1.0
// JSON schema (testdata/sarif-schema-2.1.0.json, as shipped in the MIT-licensed
// npm package @microsoft/sarif-multitool-linux 5.7.0), and checks that
// every rule is described in tool.driver.rules.
func TestSARIFSchema(t *testing.T) {
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../fixtures/lint/*-bad.yaml")
	args := append([]string{"lint", "--format", "sarif"}, files...)
	_, out, _ := runLBCTL(args...)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Errorf("SARIF does not validate: %v", err)
	}
	run := doc.(map[string]any)["runs"].([]any)[0].(map[string]any)
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	if len(rules) < 60 {
		t.Errorf("only %d rules in tool.driver.rules", len(rules))
	}
	if len(run["results"].([]any)) < 20 {
		t.Errorf("too few results")
	}
	// The schema must catch a broken log.
	broken := map[string]any{"version": "2.0", "runs": []any{map[string]any{"tool": map[string]any{}}}}
	if err := schema.Validate(broken); err == nil {
		t.Error("schema accepted an invalid log")
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// TestLintRules: lbctl rules lists every rule, lbctl rules ID documents one.
func TestLintRules(t *testing.T) {
	code, out, _ := runLBCTL("rules")
	if code != 0 || !strings.Contains(out, "LB1203  aggregate-unknown-child") {
		t.Errorf("rules: %d %q", code, out)
	}
	code, out, _ = runLBCTL("rules", "aggregate-unknown-child")
	if code != 0 || !strings.Contains(out, "catalogue: AGG-UNKNOWN-CHILD") || !strings.Contains(out, "hint: ") {
		t.Errorf("rules ID: %d %q", code, out)
	}
	if code, _, _ = runLBCTL("rules", "LB9999"); code != ExitUsage {
		t.Errorf("rules LB9999: exit %d", code)
	}
}

// TestLintSeedFixtures: the project's example configs (fixtures/*.yaml,
// meant to be valid) have no error finding; their warnings (panic at
// today's health) are what the examples illustrate.
func TestLintSeedFixtures(t *testing.T) {
	files, _ := filepath.Glob("../fixtures/*.yaml")
	for _, f := range files {
		if code, out, _ := runLBCTL("lint", f); code != ExitOK {
			t.Errorf("%s: exit %d\n%s", f, code, out)
		}
	}
}

// TestLintStrict: a field Envoy wrote into its own dump is not reported by
// default; --strict restores per-field proto validation.
func TestLintStrict(t *testing.T) {
	const dump = "../fixtures/inputs/strict-dump.json"
	_, out, _ := runLBCTL("lint", "--format", "json", dump)
	if strings.Contains(out, "LB0003") {
		t.Errorf("default lint reports LB0003 on an Envoy-written dump:\n%s", out)
	}
	_, out, _ = runLBCTL("lint", "--format", "json", "--strict", dump)
	if !strings.Contains(out, `"rule": "LB0003"`) || !strings.Contains(out, "hidden_envoy_deprecated_tls_context") || !strings.Contains(out, `"line": 8`) {
		t.Errorf("--strict does not report the unknown field at line 8:\n%s", out)
	}
	if _, help, _ := runLBCTL("lint", "--help"); !strings.Contains(help, "--strict") {
		t.Errorf("lint --help does not document --strict")
	}
}

// TestLintGroups: two bootstraps in one directory are two Envoys, so one
// cluster name in both is no duplicate; --merge checks them as one.
func TestLintGroups(t *testing.T) {
	const dir = "../fixtures/inputs/groups"
	if _, out, _ := runLBCTL("lint", "--format", "json", dir); strings.Contains(out, "LB0012") || strings.Contains(out, "LB0008") {
		t.Errorf("per-configuration lint reports cross-configuration findings:\n%s", out)
	}
	_, out, _ := runLBCTL("lint", "--format", "json", "--merge", dir)
	if !strings.Contains(out, `"rule": "LB0012"`) || !strings.Contains(out, "edge-b.yaml") {
		t.Errorf("--merge does not report the duplicate web cluster:\n%s", out)
	}
}

// TestLintRefusalOnce: a file lint cannot read is one finding on stdout
// and exit 3, not also a line on stderr; with its rule disabled it is
// said on stderr instead.
func TestLintRefusalOnce(t *testing.T) {
	code, out, errs := runLBCTL("lint", "../fixtures/broken/malformed.yaml")
	if code != ExitInput || strings.Count(out, "invalid YAML") != 1 || errs != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runLBCTL("lint", "--disable", "LB0001", "../fixtures/broken/malformed.yaml")
	if code != ExitInput || strings.Contains(out, "invalid YAML") || strings.Count(errs, "invalid YAML") != 1 {
		t.Errorf("disabled: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
