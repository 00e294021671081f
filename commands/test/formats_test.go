package test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"
)

// xmlElem is a parsed XML element, for checking the JUnit schema's shape.
type xmlElem struct {
	name     string
	attrs    map[string]string
	children []*xmlElem
}

// parseXML reads a whole document strictly; any malformation fails.
func parseXML(t *testing.T, data []byte) *xmlElem {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	root := &xmlElem{}
	stack := []*xmlElem{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			e := &xmlElem{name: x.Name.Local, attrs: map[string]string{}}
			for _, a := range x.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if len(root.children) != 1 {
		t.Fatalf("%d root elements", len(root.children))
	}
	return root.children[0]
}

func need(t *testing.T, e *xmlElem, attrs ...string) {
	t.Helper()
	for _, a := range attrs {
		if _, ok := e.attrs[a]; !ok {
			t.Errorf("<%s> lacks %s", e.name, a)
		}
	}
}

// JUnit output is well-formed and has the common JUnit schema's structure:
// testsuites > testsuite[name,tests,failures,errors,skipped] >
// testcase[name,classname] > failure[message].
func TestJUnit(t *testing.T) {
	opt, out, _ := options(t, "junit", fx+"tests/failing.yaml", fx+"tests/ok.yaml")
	if code := Run(opt); code != ExitFail {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(out.String(), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration")
	}
	root := parseXML(t, out.Bytes())
	if root.name != "testsuites" || len(root.children) != 2 {
		t.Fatalf("root <%s> with %d suites", root.name, len(root.children))
	}
	want := []struct {
		name            string
		tests, failures string
	}{{fx + "tests/failing.yaml", "3", "2"}, {fx + "tests/ok.yaml", "4", "0"}}
	failures := 0
	for i, s := range root.children {
		if s.name != "testsuite" {
			t.Fatalf("<%s> under testsuites", s.name)
		}
		need(t, s, "name", "tests", "failures", "errors", "skipped")
		if s.attrs["name"] != want[i].name || s.attrs["tests"] != want[i].tests || s.attrs["failures"] != want[i].failures || s.attrs["errors"] != "0" {
			t.Errorf("suite %d: %v", i, s.attrs)
		}
		for _, c := range s.children {
			if c.name != "testcase" {
				t.Fatalf("<%s> under testsuite", c.name)
			}
			need(t, c, "name", "classname")
			for _, f := range c.children {
				if f.name != "failure" {
					t.Errorf("<%s> under testcase", f.name)
				}
				need(t, f, "message")
				failures++
			}
		}
	}
	if failures != 2 {
		t.Errorf("%d failure elements, want one per failing test (2)", failures)
	}
	if !strings.Contains(out.String(), `message="priority_load.0: got 70, want &gt;= 90"`) {
		t.Errorf("failure message:\n%s", out)
	}
}

// Names with workflow-command syntax and control characters come out
// escaped: one line per failing expectation, each with file= and line=.
func TestGitHubEscaping(t *testing.T) {
	path := t.TempDir() + "/we,ird:tests.yaml"
	src := "tests:\n- name: \"100% sure,\\nreally: \\x1b[31m\"\n  cluster: backend\n  expect:\n    priority_load: {0: 90}\n    total_panic: true\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	opt, out, errOut := options(t, "github", path)
	if code := Run(opt); code != ExitFail {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	file := strings.NewReplacer(",", "%2C", ":", "%3A").Replace(path)
	// The name's newline was escaped when read (\x0a); GitHub's own
	// escapes are checked on raw strings below.
	want := "::error file=" + file + ",line=5,col=24,title=lbctl test%3A 100%25 sure%2C\\x0areally%3A \\x1b[31m::" +
		"100%25 sure,\\x0areally: \\x1b[31m: priority_load.0: got 70, want 90\n" +
		"::error file=" + file + ",line=6,col=18,title=lbctl test%3A 100%25 sure%2C\\x0areally%3A \\x1b[31m::" +
		"100%25 sure,\\x0areally: \\x1b[31m: total_panic: got false, want true\n"
	if got := ghData("a%b\r\nc:d,e\x07"); got != "a%25b%0D%0Ac:d,e\\x07" {
		t.Errorf("ghData: %s", got)
	}
	if got := ghProperty("a%b\r\nc:d,e\x07"); got != "a%25b%0D%0Ac%3Ad%2Ce\\x07" {
		t.Errorf("ghProperty: %s", got)
	}
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// No format lets a raw control character through.
	for _, f := range []string{"text", "json", "junit", "github"} {
		opt, out, _ := options(t, f, path)
		Run(opt)
		for _, r := range out.String() {
			if r != '\n' && (r < 0x20 || r == 0x7f) {
				t.Errorf("%s: raw control character %q in\n%s", f, r, out)
				break
			}
		}
	}
}

func TestNotCheckedFormats(t *testing.T) {
	opt, _, _ := options(t, "text")
	opt.Tests = []string{fx + "tests/router.json"}
	// Only the router tests with nothing checked: the route engine is
	// not needed for them.
	opt.ReadFile = func(string) ([]byte, error) {
		return []byte(`{"tests": [{"test_name": "runtime", "input": {"authority": "a", "path": "/", "runtime": "k"}, "validate": {"cluster_name": "c", "host_rewrite": "h"}}]}`), nil
	}
	var out bytes.Buffer
	opt.Stdout = &out
	if code := Run(opt); code != ExitPass {
		t.Fatalf("exit %d", code)
	}
	if want := "NOT CHECKED runtime (not checked: cluster_name, host_rewrite)\n0 passed, 0 failed, 2 fields not checked\n"; out.String() != want {
		t.Errorf("got\n%s", out.String())
	}
}
