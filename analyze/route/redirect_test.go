package route

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedirects pins Utility::newUri's Location for each RedirectAction
// field: the path_redirect's own query wins, strip_query, port handling
// in processRequestHost (a scheme change drops the old scheme's default
// port), response codes.
func TestRedirects(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/redirects.yaml")
	cases := []struct {
		authority, path string
		ssl             bool
		status          int
		want            string
	}{
		{"r.example", "/path", false, 301, "http://r.example/newpath"},
		{"r.example", "/path/x?k=v", false, 301, "http://r.example/newpath?k=v"},
		{"r.example", "/pq?k=v", false, 301, "http://r.example/newpath?a=b"},
		{"r.example", "/pfx/sub", false, 301, "http://r.example/replaced/sub"},
		{"r.example", "/https/x", false, 301, "https://r.example/https/x"},
		{"r.example:80", "/https/x", false, 301, "https://r.example/https/x"},
		{"r.example:8080", "/https/x", false, 301, "https://r.example:8080/https/x"},
		{"r.example", "/c307", false, 307, "http://other.example/c307"},
		{"r.example", "/strip/a?q=1&z=2", false, 301, "http://other.example/strip/a"},
		{"r.example", "/port", false, 301, "http://other.example:8443/port"},
		{"r.example:8080", "/keep", false, 301, "http://r.example:8443/keep"},
		{"r.example", "/scheme/x", true, 301, "ftp://r.example/scheme/x"},
		{"r.example", "/regex/abc?x=1", false, 301, "http://r.example/r/abc?x=1"},
		{"r.example", "/bare/deep", true, 301, "https://r.example/bare/deep"},
	}
	for _, c := range cases {
		r, err := Build(cfg, Request{Authority: c.authority, Path: c.path, SSL: c.ssl}, Options{}, Balancers{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Action != ActionRedirect || r.Redirect == nil || r.Redirect.Location != c.want || r.Redirect.Status != c.status {
			t.Errorf("%s%s: %s %+v, want %d %s", c.authority, c.path, r.Action, r.Redirect, c.status, c.want)
		}
	}
}

// TestDirectResponseHidesBody: the status and the body's length, never
// the body.
func TestDirectResponseHidesBody(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/redirects.yaml")
	r, err := Build(cfg, Request{Authority: "d.example", Path: "/"}, Options{}, Balancers{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	if r.Action != ActionDirect || r.Direct.Status != 403 || *r.Direct.BodyLength != 12 || strings.Contains(string(out), "secret") {
		t.Fatalf("%s", out)
	}
}
