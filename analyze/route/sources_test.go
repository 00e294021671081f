package route

import (
	"errors"
	"strings"
	"testing"

	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// TestSources: inline and RDS route configurations of listeners (any
// filter chain, the default one), the HCM's port stripping
// (HeaderUtility::stripPortFromHost), ignore_port_in_host_matching, and
// the usage error when the answers differ.
func TestSources(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/listeners.yaml")
	cases := []struct {
		opt       Options
		authority string
		want      string
	}{
		// strip_matching_host_port strips only the listener's port.
		{Options{Listener: "public"}, "shop.example:8080", "web"},
		{Options{Listener: "public"}, "shop.example:9090", "web_9090"},
		{Options{RouteConfig: "public_routes"}, "shop.example", "web"},
		// strip_any_host_port, and ignore_port_in_host_matching.
		{Options{Listener: "internal"}, "shop.example:1234", "internal_web"},
		{Options{RouteConfig: "internal_routes"}, "SHOP.example:1", "internal_web"},
	}
	for _, c := range cases {
		r, err := Build(cfg, Request{Authority: c.authority, Path: "/"}, c.opt, Balancers{})
		if err != nil {
			t.Fatalf("%+v %s: %v", c.opt, c.authority, err)
		}
		if r.Cluster != c.want {
			t.Errorf("%+v %s: cluster %q, want %q; steps %q", c.opt, c.authority, r.Cluster, c.want, r.Steps())
		}
	}
	_, err := Build(cfg, Request{Authority: "shop.example", Path: "/"}, Options{}, Balancers{})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "public_routes (listener public)") || !strings.Contains(ue.Msg, "internal_routes (listener internal)") {
		t.Fatalf("want a usage error naming both, got %v", err)
	}
	_, err = Build(cfg, Request{Authority: "shop.example", Path: "/"}, Options{Listener: "nope"}, Balancers{})
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "the listeners are: internal, public") {
		t.Fatalf("unknown listener: %v", err)
	}
}

func TestStripPort(t *testing.T) {
	cases := []struct {
		host, method string
		port         uint32
		any          bool
		want         string
	}{
		{"a.example:80", "GET", 80, false, "a.example"},
		{"a.example:81", "GET", 80, false, "a.example:81"},
		{"a.example:81", "GET", 80, true, "a.example"},
		{"[::1]:80", "GET", 80, false, "[::1]"},
		{"[::1]", "GET", 80, true, "[::1]"},
		{"a.example:x", "GET", 80, true, "a.example:x"},
		{"a.example:80", "CONNECT", 80, true, "a.example:80"},
	}
	for _, c := range cases {
		hcm := hcmWith(c.any)
		if got, _ := normalizeHost(c.host, c.method, hcm, c.port, true); got != c.want {
			t.Errorf("%s any=%v: %q, want %q", c.host, c.any, got, c.want)
		}
	}
}

func hcmWith(any bool) *hcmv3.HttpConnectionManager {
	if any {
		return &hcmv3.HttpConnectionManager{StripPortMode: &hcmv3.HttpConnectionManager_StripAnyHostPort{StripAnyHostPort: true}}
	}
	return &hcmv3.HttpConnectionManager{StripMatchingHostPort: true}
}

// TestSameAnswer: two route configurations answering alike (a direct
// response, whose report holds pointers) need no choice.
func TestSameAnswer(t *testing.T) {
	doc := "name: a\nvirtual_hosts: [{name: v, domains: ['*'], routes: [{match: {prefix: /}, direct_response: {status: 403, body: {inline_string: no}}}]}]\n---\n" +
		"name: b\nvirtual_hosts: [{name: v, domains: ['*'], routes: [{match: {prefix: /}, direct_response: {status: 403, body: {inline_string: no}}}]}]\n"
	cfg, err := config.LoadBytes("two.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(cfg, Request{Authority: "h", Path: "/"}, Options{}, Balancers{})
	if err != nil || r.Direct.Status != 403 || !strings.Contains(strings.Join(r.Notes, "\n"), "2 route configurations are loaded") {
		t.Fatalf("%v %+v", err, r)
	}
}
