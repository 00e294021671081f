package route

import (
	"reflect"
	"testing"
)

// TestMatching transcribes cases of Envoy's test/common/router/
// config_impl_test.cc and test/common/http/header_utility_test.cc onto our
// fixture; each row names the Envoy TEST it follows, or ("lbctl: F") the
// Envoy function F whose behaviour it pins where no Envoy test states it.
func TestMatching(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/matching.yaml")
	u := func(v uint64) *uint64 { return &v }
	cases := []struct {
		envoy     string
		authority string
		path      string
		headers   [][2]string
		random    *uint64
		ssl       bool
		method    string
		want      string // cluster; "" for none
		action    string
	}{
		// RouteMatcherTest.TestRoutes: exact and case-insensitive domains.
		{"TestRoutes", "shop.example", "/foo", nil, nil, false, "", "www", ""},
		{"TestRoutes", "wwww.shop.example", "/", nil, nil, false, "", "root_www", ""},
		{"TestRoutes", "SHOP.EXAMPLE", "/foo", nil, nil, false, "", "www", ""},
		{"TestRoutes", "wWww.ShoP.exAMple", "/", nil, nil, false, "", "root_www", ""},
		// Wildcards: the longest suffix first; a wildcard never matches a
		// host of its own length.
		{"TestRoutes", "www.foo.example", "/", nil, nil, false, "", "wildcard", ""},
		{"TestRoutes", "foo-bar.baz.example", "/", nil, nil, false, "", "wildcard", ""},
		{"TestRoutes", "-bar.baz.example", "/", nil, nil, false, "", "wildcard2", ""},
		{"TestRoutes", "bar.baz.example", "/", nil, nil, false, "", "wildcard2", ""},
		{"TestRoutes", ".foo.example", "/", nil, nil, false, "", "", "no_virtual_host"},
		{"TestRoutes", "foo.example", "/", nil, nil, false, "", "", "no_virtual_host"},
		// Prefix wildcards after suffix ones, longest first.
		{"lbctl: findVirtualHost prefixes", "api.v2.x", "/", nil, nil, false, "", "prefixed", ""},
		{"lbctl: findVirtualHost prefixes", "api.", "/", nil, nil, false, "", "", "no_virtual_host"},
		// Regular expressions: a full match of the path without its query.
		{"TestRoutes", "bat.example", "/tic", nil, nil, false, "", "clock", ""},
		{"TestRoutes", "bat.example", "/toc", nil, nil, false, "", "clock", ""},
		{"TestRoutes", "bat.example", "/tac", nil, nil, false, "", "regex_default", ""},
		{"TestRoutes", "bat.example", "", nil, nil, false, "", "regex_default", ""},
		{"TestRoutes", "bat.example", "/tick", nil, nil, false, "", "regex_default", ""},
		{"TestRoutes", "bat.example", "/tic/toc", nil, nil, false, "", "regex_default", ""},
		{"TestRoutes", "bat.example", "/baa", nil, nil, false, "", "sheep", ""},
		{"TestRoutes", "bat.example", "/baaaaaaaaaaaa", nil, nil, false, "", "sheep", ""},
		{"TestRoutes", "bat.example", "/ba", nil, nil, false, "", "regex_default", ""},
		{"TestRoutes", "bat.example", "/tic?tac=true", nil, nil, false, "", "clock", ""},
		{"TestRoutes", "bat.example", "/tac?tic=true", nil, nil, false, "", "regex_default", ""},
		{"TestRoutes", "bat.example", "/x/123", nil, nil, false, "", "three_numbers", ""},
		// RouteMatcherTest.HeaderMatchedRouting: range_match [start, end).
		{"HeaderMatchedRouting", "headers.example", "/", [][2]string{{"x-range", "9"}}, nil, false, "", "with_range", ""},
		{"HeaderMatchedRouting", "headers.example", "/", [][2]string{{"x-range", "10"}}, nil, false, "", "no_headers", ""},
		{"HeaderMatchedRouting", "headers.example", "/", [][2]string{{"x-range", "19"}}, nil, false, "", "no_headers", ""},
		// invert_match: an absent header fails even inverted
		// (HeaderDataBaseImpl::matchesHeaders).
		{"MatchHeadersTest.HeaderExactMatchInverse", "headers.example", "/", [][2]string{{"x-env", "dev"}}, nil, false, "", "not_prod", ""},
		{"MatchHeadersTest.HeaderExactMatchInverse", "headers.example", "/", [][2]string{{"x-env", "prod"}}, nil, false, "", "no_headers", ""},
		{"MatchHeadersTest.HeaderExactMatchInverse", "headers.example", "/", nil, nil, false, "", "no_headers", ""},
		// treat_missing_header_as_empty: absent is "".
		{"MatchHeadersTest.HeaderPresenceTreatMissingAsEmpty", "headers.example", "/", [][2]string{{"x-gate", "1"}}, nil, false, "", "empty_or_missing", ""},
		{"MatchHeadersTest.HeaderPresenceTreatMissingAsEmpty", "headers.example", "/", [][2]string{{"x-gate", "1"}, {"x-empty", "v"}}, nil, false, "", "no_headers", ""},
		// string_match ignore_case.
		{"lbctl: StringMatcherImpl ignore_case", "headers.example", "/", [][2]string{{"x-user", "alice"}}, nil, false, "", "al_users", ""},
		// RouteMatcherTest.QueryParamMatchedRouting.
		{"QueryParamMatchedRouting", "query.example", "/", nil, nil, false, "", "no_params", ""},
		{"QueryParamMatchedRouting", "query.example", "/?", nil, nil, false, "", "no_params", ""},
		{"QueryParamMatchedRouting", "query.example", "/?param=testing", nil, nil, false, "", "no_params", ""},
		{"QueryParamMatchedRouting", "query.example", "/?param=test", nil, nil, false, "", "with_param", ""},
		{"QueryParamMatchedRouting", "query.example", "/?debug", nil, nil, false, "", "valueless", ""},
		{"QueryParamMatchedRouting", "query.example", "/?debug2", nil, nil, false, "", "present", ""},
		{"QueryParamMatchedRouting", "query.example", "/?debug=2", nil, nil, false, "", "valueless", ""},
		{"QueryParamMatchedRouting", "query.example", "/?param=test&debug&id=01", nil, nil, false, "", "with_param", ""},
		{"QueryParamMatchedRouting", "query.example", "/?param=test&debug&id=02", nil, nil, false, "", "multiple_params", ""},
		// RouteMatcherTest.WeightedClusters: random % 100 over 30/30/40.
		{"WeightedClusters", "split.example", "/", nil, u(115), false, "", "one", ""},
		{"WeightedClusters", "split.example", "/", nil, u(445), false, "", "two", ""},
		{"WeightedClusters", "split.example", "/", nil, u(560), false, "", "three", ""},
		// header_name's value, when it is one number.
		{"lbctl: pickWeightedCluster header_name", "split.example", "/h", [][2]string{{"x-random", "50"}}, u(0), false, "", "two", ""},
		{"lbctl: pickWeightedCluster header_name", "split.example", "/h", [][2]string{{"x-random", "x"}}, u(70), false, "", "three", ""},
		// Path matchers beyond prefix/path/regex.
		{"lbctl: PathSeparatedPrefixRouteEntryImpl", "paths.example", "/sep", nil, nil, false, "", "separated", ""},
		{"lbctl: PathSeparatedPrefixRouteEntryImpl", "paths.example", "/sep/x?y", nil, nil, false, "", "separated", ""},
		{"lbctl: PathSeparatedPrefixRouteEntryImpl", "paths.example", "/separate", nil, nil, false, "", "paths_default", ""},
		{"lbctl: uri_template", "paths.example", "/videos/42/a/b.mp4", nil, nil, false, "", "template", ""},
		{"lbctl: uri_template", "paths.example", "/videos/42", nil, nil, false, "", "paths_default", ""},
		{"lbctl: hasGrpcContentType", "paths.example", "/grpc", [][2]string{{"content-type", "application/grpc"}}, nil, false, "", "grpc", ""},
		{"lbctl: hasGrpcContentType", "paths.example", "/grpc", [][2]string{{"content-type", "application/grpc-web"}}, nil, false, "", "paths_default", ""},
		{"lbctl: evaluateTlsContextMatch", "paths.example", "/tls", nil, nil, true, "", "mtls", ""},
		{"lbctl: evaluateTlsContextMatch", "paths.example", "/tls", nil, nil, false, "", "paths_default", ""},
		// evaluateRuntimeMatch: random % 100 < 50.
		{"lbctl: evaluateRuntimeMatch", "paths.example", "/half", nil, u(149), false, "", "half", ""},
		{"lbctl: evaluateRuntimeMatch", "paths.example", "/half", nil, u(150), false, "", "paths_default", ""},
	}
	for _, c := range cases {
		req := Request{Authority: c.authority, Path: c.path, Headers: c.headers, RandomValue: c.random, SSL: c.ssl, Method: c.method}
		r, err := Build(cfg, req, Options{}, Balancers{})
		if err != nil {
			t.Fatalf("%s %s%s: %v", c.envoy, c.authority, c.path, err)
		}
		if r.Cluster != c.want || (c.action != "" && r.Action != c.action) {
			t.Errorf("%s: %s%s %v: cluster %q action %s, want %q %s; steps %q notes %q", c.envoy, c.authority, c.path, c.headers, r.Cluster, r.Action, c.want, c.action, r.Steps(), r.Notes)
		}
	}
}

// TestWeightedShares: without a random value each cluster gets
// weight/total, with the route's metadata_match merged under the entry's.
func TestWeightedShares(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/matching.yaml")
	r, err := Build(cfg, Request{Authority: "split.example", Path: "/"}, Options{}, Balancers{})
	if err != nil {
		t.Fatal(err)
	}
	want := []ClusterChoice{{"one", 0.3, 30}, {"two", 0.3, 30}, {"three", 0.4, 40}}
	if !reflect.DeepEqual(r.Clusters, want) || r.Cluster != "" || r.Action != ActionWeighted {
		t.Fatalf("clusters %v cluster %q action %s", r.Clusters, r.Cluster, r.Action)
	}
	seven := uint64(445)
	r, _ = Build(cfg, Request{Authority: "split.example", Path: "/", RandomValue: &seven}, Options{}, Balancers{})
	if want := map[string]any{"stage": "prod", "version": "v2"}; !reflect.DeepEqual(r.MetadataMatch, want) {
		t.Fatalf("metadata_match %v, want %v", r.MetadataMatch, want)
	}
}
