package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runLBCTL(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(append([]string{"lbctl"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestLintExitCodes: findings exit 1, --fail-on none 0, a clean file 0,
// a usage error 2 and an unparsable file 3, in every format.
func TestLintExitCodes(t *testing.T) {
	bad := "../fixtures/lint/LB1101-bad.yaml"
	good := "../fixtures/lint/LB1101-good.yaml"
	for _, format := range lintFormats {
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
	var got jsonLint
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

// TestSARIFSchema validates SARIF output against the subset schema in
// testdata (see its $comment), and checks every rule is described.
func TestSARIFSchema(t *testing.T) {
	schemaData, err := os.ReadFile("testdata/sarif-2.1.0-subset.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(schemaData, &schema); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../fixtures/lint/*-bad.yaml")
	args := append([]string{"lint", "--format", "sarif"}, files[:20]...)
	_, out, _ := runLBCTL(args...)
	var doc any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	defs := schema["definitions"].(map[string]any)
	if errs := validate(schema, doc, "$", defs); len(errs) > 0 {
		t.Errorf("SARIF does not validate:\n%s", strings.Join(errs, "\n"))
	}
	run := doc.(map[string]any)["runs"].([]any)[0].(map[string]any)
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	if len(rules) < 60 {
		t.Errorf("only %d rules in tool.driver.rules", len(rules))
	}
	if len(run["results"].([]any)) < 20 {
		t.Errorf("too few results")
	}
	// A broken document must be caught by the validator.
	broken := map[string]any{"version": "2.0", "runs": []any{map[string]any{"tool": map[string]any{}}}}
	if errs := validate(schema, broken, "$", defs); len(errs) < 2 {
		t.Errorf("validator accepted an invalid log: %v", errs)
	}
}

// validate checks v against a JSON-schema subset: type, required,
// properties, items, enum, minimum, maximum, $ref (by definition name).
func validate(s map[string]any, v any, path string, defs map[string]any) []string {
	if ref, ok := s["$ref"].(string); ok {
		return validate(defs[ref].(map[string]any), v, path, defs)
	}
	var errs []string
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || e == v
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %v not in %v", path, v, enum))
		}
	}
	switch s["type"] {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return append(errs, path+": not an object")
		}
		for _, r := range asList(s["required"]) {
			if _, ok := m[r.(string)]; !ok {
				errs = append(errs, path+": missing "+r.(string))
			}
		}
		props, _ := s["properties"].(map[string]any)
		for k, pv := range m {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(ps, pv, path+"."+k, defs)...)
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return append(errs, path+": not an array")
		}
		if is, ok := s["items"].(map[string]any); ok {
			for i, el := range a {
				errs = append(errs, validate(is, el, fmt.Sprintf("%s[%d]", path, i), defs)...)
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			errs = append(errs, path+": not a string")
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			errs = append(errs, path+": not a boolean")
		}
	case "integer", "number":
		n, ok := v.(float64)
		if !ok || (s["type"] == "integer" && n != math.Trunc(n)) {
			return append(errs, path+": not an "+s["type"].(string))
		}
		if min, ok := s["minimum"].(float64); ok && n < min {
			errs = append(errs, fmt.Sprintf("%s: %v < minimum %v", path, n, min))
		}
		if max, ok := s["maximum"].(float64); ok && n > max {
			errs = append(errs, fmt.Sprintf("%s: %v > maximum %v", path, n, max))
		}
	}
	return errs
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
