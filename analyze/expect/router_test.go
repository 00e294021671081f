package expect

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fakeRoutes stands in for the route engine: answers by path.
func fakeRoutes(asked *[]Request) Reports {
	return Reports{
		Clusters: []string{"cart", "beta", "web"},
		Request: func(r Request, _ Given) (RouteResult, error) {
			*asked = append(*asked, r)
			switch r.Path {
			case "/api/cart":
				return RouteResult{VirtualHost: "shop", Route: "api", Found: true, Cluster: "cart",
					Hosts: []RouteHost{{Cluster: "cart", Address: "10.0.0.7:80", Share: 0.75}, {Cluster: "cart", Address: "10.0.0.8:80", Share: 0.25}}}, nil
			case "/old":
				return RouteResult{VirtualHost: "shop", Route: "legacy", Found: true, PathRedirect: "/newer"}, nil
			}
			return RouteResult{VirtualHost: "shop"}, nil
		},
	}
}

func TestRouterCheckForm(t *testing.T) {
	var asked []Request
	res, err := Run([]*File{parseFile(t, "../../fixtures/tests/router.json")}, fakeRoutes(&asked))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	const p = "../../fixtures/tests/router.json"
	want := `{"tests":[` +
		`{"name":"api goes to cart","passed":true,"at":"` + p + `:4:20","failures":[],"not_checked":["path_rewrite"]},` +
		`{"name":"old path redirects","passed":false,"at":"` + p + `:10:20","failures":[{"expect":"path_redirect","want":"/new","got":"/newer","at":"` + p + `:12:57"}],"not_checked":[]},` +
		`{"name":"runtime-gated route","passed":null,"at":"` + p + `:15:20","failures":[],"not_checked":["cluster_name"]},` +
		`{"name":"headers only","passed":null,"at":"` + p + `:20:20","failures":[],"not_checked":["request_header_matches"]}],` +
		`"summary":{"passed":1,"failed":1,"not_checked":3}}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	// Tests with nothing checked do not ask; random_value defaults to 0.
	wantAsked := []Request{
		{Authority: "shop.example.com", Path: "/api/cart", Method: "GET", Headers: []Header{{"x-user", "alice"}}},
		{Authority: "shop.example.com", Path: "/old", Method: "GET", RandomValue: 50, SSL: true},
	}
	if !reflect.DeepEqual(asked, wantAsked) {
		t.Errorf("asked %+v\nwant %+v", asked, wantAsked)
	}
}

func TestRequestTests(t *testing.T) {
	src := `tests:
- name: cart
  request: {authority: shop.example.com, path: /api/cart, headers: {x-user: alice}}
  expect:
    cluster: cart
    route: api
    virtual_host: shop
    host_share: {"10.0.0.7:80": ">= 0.7"}
    max_host_share: 0.75
    min_host_share: "< 0.2"
- name: typo in the expected cluster
  request: {path: /api/cart}
  expect:
    cluster: kart
`
	f, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var asked []Request
	_, err = Run([]*File{f}, fakeRoutes(&asked))
	if err == nil || err.Error() != `t.yaml:14:14: cluster: no cluster "kart"; the closest cluster is cart` {
		t.Fatalf("err %v", err)
	}
	f.Tests = f.Tests[:1]
	res, err := Run([]*File{f}, fakeRoutes(&asked))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tests[0].Failures) != 1 || res.Tests[0].Failures[0].Expect != "min_host_share" || res.Tests[0].Failures[0].Got != 0.25 {
		t.Errorf("failures %+v", res.Tests[0].Failures)
	}
	// A what-if naming no cluster is refused on request tests too.
	f, err = Parse("t.yaml", []byte("tests:\n- name: x\n  request: {path: /}\n  given: {set_health: [kart=50]}\n  expect: {cluster: cart}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run([]*File{f}, fakeRoutes(&asked)); err == nil || err.Error() != `t.yaml:4:24: set_health "kart=50": no cluster "kart"; the closest cluster is cart` {
		t.Errorf("err %v", err)
	}
	// Cluster keys are refused on request tests and the other way round.
	for src, want := range map[string]string{
		"tests:\n- name: x\n  request: {path: /}\n  expect: {panic: {0: false}}\n": `t.yaml:4:12: expect key "panic" applies to cluster tests, this test has a request`,
		"tests:\n- name: x\n  cluster: c\n  expect: {route: api}\n":                `t.yaml:4:12: expect key "route" applies to request tests, this test names a cluster`,
		"tests:\n- name: x\n  request: {pth: /}\n  expect: {}\n":                   "t.yaml:3:13: unknown request key \"pth\"; the closest request key is path\nt.yaml:3:12: request: needs a path",
	} {
		if _, err := Parse("t.yaml", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%q: error\n%v\nwant\n%s", src, err, want)
		}
	}
}

// The .golden.proto.json files of Envoy's own suites: protobuf JSON's
// camelCase names, uint64 as strings, newer validate fields (not checked)
// and dynamic metadata (the test is not checked).
func TestGoldenProtoJSON(t *testing.T) {
	var asked []Request
	res, err := Run([]*File{parseFile(t, "../../fixtures/tests/router.golden.proto.json")}, fakeRoutes(&asked))
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Tests[0], res.Tests[1]
	if a.Passed != nil || !reflect.DeepEqual(a.NotChecked, []string{"cluster_name", "virtual_host_name"}) {
		t.Errorf("dynamic metadata: %+v", a)
	}
	if b.Passed == nil || !*b.Passed || !reflect.DeepEqual(b.NotChecked, []string{"timeout", "code_redirect"}) {
		t.Errorf("camelCase: %+v", b)
	}
	want := []Request{{Authority: "shop.example.com", Path: "/api/cart", Method: "GET", RandomValue: 7, Headers: []Header{{"x-user", "bob"}}}}
	if !reflect.DeepEqual(asked, want) || res.Summary.NotChecked != 4 {
		t.Errorf("asked %+v, summary %+v", asked, res.Summary)
	}
}

// Every field of the router_check_tool validation.proto's ValidationAssert
// (and the legacy header_fields, custom_header_fields): the three lbctl
// checks are compared (and fail when wrong); every other one is named in
// not_checked, never counted as passed.
func TestRouterCheckEveryField(t *testing.T) {
	var asked []Request
	res, err := Run([]*File{parseFile(t, "../../fixtures/tests/router-every-field.json")}, fakeRoutes(&asked))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	const p = "../../fixtures/tests/router-every-field.json"
	want := `{"tests":[` +
		`{"name":"every validate field","passed":true,"at":"` + p + `:4:20","failures":[],"not_checked":[` +
		`"virtual_cluster_name","host_rewrite","path_rewrite","code_redirect","timeout","request_header_fields",` +
		`"response_header_fields","request_header_matches","response_header_matches","header_fields","custom_header_fields"]},` +
		`{"name":"the checked fields, wrong","passed":false,"at":"` + p + `:27:20","failures":[` +
		`{"expect":"cluster_name","want":"cart","got":null,"at":"` + p + `:29:36"},` +
		`{"expect":"virtual_host_name","want":"web","got":"shop","at":"` + p + `:29:65"},` +
		`{"expect":"path_redirect","want":"/gone","got":"/newer","at":"` + p + `:29:89"}],"not_checked":[]},` +
		`{"name":"runtime: nothing checked","passed":null,"at":"` + p + `:32:20","failures":[],"not_checked":[` +
		`"cluster_name","virtual_host_name","path_redirect","path_rewrite"]}],` +
		`"summary":{"passed":1,"failed":1,"not_checked":15}}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	if len(asked) != 2 || !asked[0].SSL || !asked[0].Internal || asked[0].RandomValue != 3 {
		t.Errorf("asked %+v: want the first two tests, the first with ssl, internal and random_value 3", asked)
	}
}
