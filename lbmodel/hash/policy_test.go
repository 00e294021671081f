package hash

import (
	"math/bits"
	"testing"
)

func gen(t *testing.T, ps []Policy, req Request) (uint64, bool) {
	t.Helper()
	h, ok, err := Generate(ps, req)
	if err != nil {
		t.Fatalf("GenerateHash: %v", err)
	}
	return h, ok
}

// Envoy test/common/http/hash_policy_test.cc, HashPolicyImplTest.*.
func TestHashPolicyEnvoyHashPolicyTest(t *testing.T) {
	header := func(name string) []Policy { return []Policy{{Kind: HashByHeader, Name: name}} }
	cases := []struct {
		name   string
		ps     []Policy
		req    Request
		want   uint64
		wantOK bool
	}{
		{"HeaderHashForSingleHeaderValue", header("x-test-header"), Request{Headers: map[string][]string{"x-test-header": {"test-value"}}}, XXHash64("test-value"), true},
		{"MultipleHeaderValues", header("x-multi-header"), Request{Headers: map[string][]string{"x-multi-header": {"value1", "value2"}}}, XXHash64Chain([]string{"value1", "value2"}, 0), true},
		{"HeaderHashMethodSameHashForDifferentHeaderOrder", header("x-reorder-header"), Request{Headers: map[string][]string{"x-reorder-header": {"value2", "value1"}}}, XXHash64Chain([]string{"value1", "value2"}, 0), true},
		{"HeaderNotPresent", header("x-missing-header"), Request{}, 0, false},
		{"RegexRewriteApplied", []Policy{{Kind: HashByHeader, Name: "x-test-header", RegexRewrite: &RegexRewrite{Pattern: "test", Substitution: "replaced"}}}, Request{Headers: map[string][]string{"x-test-header": {"test-value"}}}, XXHash64("replaced-value"), true},
		{"CookieHashForPresentCookie", []Policy{{Kind: HashByCookie, Name: "test-cookie"}}, Request{Headers: map[string][]string{"cookie": {"test-cookie=cookie-value"}}}, XXHash64("cookie-value"), true},
		{"CookieHashForAbsentCookieWithoutTTL", []Policy{{Kind: HashByCookie, Name: "test-cookie"}}, Request{}, 0, false},
		{"IpHashForValidIp", []Policy{{Kind: HashBySourceIP}}, Request{SourceIP: "192.168.1.1"}, XXHash64("192.168.1.1"), true},
		{"IpHashForNullAddress", []Policy{{Kind: HashBySourceIP}}, Request{}, 0, false},
		{"QueryParameterHashForExistingParameter", []Policy{{Kind: HashByQueryParameter, Name: "test-param"}}, Request{Headers: map[string][]string{":path": {"/test?test-param=param-value"}}}, XXHash64("param-value"), true},
		{"QueryParameterHashForAbsentParameter", []Policy{{Kind: HashByQueryParameter, Name: "missing-param"}}, Request{Headers: map[string][]string{":path": {"/test?some-param=other-value"}}}, 0, false},
		{"QueryParameterHashForMissingPathHeader", []Policy{{Kind: HashByQueryParameter, Name: "test-param"}}, Request{}, 0, false},
		{"FilterStateHashForExistingKey", []Policy{{Kind: HashByFilterState, Name: "test-key"}}, Request{FilterState: map[string]uint64{"test-key": 1234567}}, 1234567, true},
		{"FilterStateHashForAbsentKey", []Policy{{Kind: HashByFilterState, Name: "missing-key"}}, Request{FilterState: map[string]uint64{"another-key": 1234567}}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := gen(t, c.ps, c.req)
			if ok != c.wantOK || got != c.want {
				t.Errorf("got %d,%v want %d,%v", got, ok, c.want, c.wantOK)
			}
		})
	}
}

// CookieHashForAbsentCookieWithTTL, and the ring/Maglev *LbWithHashPolicy
// tests: a missing cookie with a ttl hashes the generated value, which needs
// both connection addresses.
func TestHashPolicyGeneratedCookie(t *testing.T) {
	ps := []Policy{{Kind: HashByCookie, Name: "test-cookie-name", CookieTTLSet: true}}
	req := Request{RemoteAddress: "10.0.0.1:5000", LocalAddress: "10.0.0.2:80"}
	cookie := GeneratedCookie(req.RemoteAddress, req.LocalAddress)
	if len(cookie) != 16 || cookie != GeneratedCookie("10.0.0.1:5000", "10.0.0.2:80") {
		t.Fatalf("cookie %q", cookie)
	}
	if got, ok := gen(t, ps, req); !ok || got != XXHash64(cookie) {
		t.Errorf("got %d,%v", got, ok)
	}
	if _, ok := gen(t, ps, Request{RemoteAddress: "10.0.0.1:5000"}); ok {
		t.Error("no local address: no hash")
	}
	// Present cookie wins over generation.
	req.Headers = map[string][]string{"Cookie": {"a=b; test-cookie-name=1234567890"}}
	if got, _ := gen(t, ps, req); got != XXHash64("1234567890") {
		t.Error("present cookie must be hashed")
	}
}

func TestHashPolicyCombination(t *testing.T) {
	req := Request{
		Headers:  map[string][]string{"x-a": {"a"}, "x-b": {"b"}},
		SourceIP: "2001:0db8:0000::1",
	}
	a, b, ip := XXHash64("a"), XXHash64("b"), XXHash64("2001:db8::1")
	hA := Policy{Kind: HashByHeader, Name: "x-a"}
	hB := Policy{Kind: HashByHeader, Name: "x-b"}
	missing := Policy{Kind: HashByHeader, Name: "x-none"}
	src := Policy{Kind: HashBySourceIP}
	for _, c := range []struct {
		name string
		ps   []Policy
		want uint64
	}{
		{"first hash unchanged", []Policy{missing, hA}, a},
		{"rotate-xor", []Policy{hA, hB}, bits.RotateLeft64(a, 1) ^ b},
		{"three", []Policy{hA, hB, src}, bits.RotateLeft64(bits.RotateLeft64(a, 1)^b, 1) ^ ip},
		{"duplicates do not cancel", []Policy{hA, hA}, bits.RotateLeft64(a, 1) ^ a},
		{"terminal stops", []Policy{{Kind: HashByHeader, Name: "x-a", Terminal: true}, hB}, a},
		{"terminal without a hash continues", []Policy{{Kind: HashByHeader, Name: "x-none", Terminal: true}, hB}, b},
		{"terminal after an earlier hash stops", []Policy{hA, {Kind: HashByHeader, Name: "x-none", Terminal: true}, hB}, a},
		{"ipv6 canonical", []Policy{src}, ip},
	} {
		if got, ok := gen(t, c.ps, req); !ok || got != c.want {
			t.Errorf("%s: got %d,%v want %d", c.name, got, ok, c.want)
		}
	}
	if a == bits.RotateLeft64(a, 1)^a {
		t.Error("impossible")
	}
}

func TestHashPolicyDetails(t *testing.T) {
	// "?p" without '=' has value "" and still hashes (= xxHash64("")).
	if v, ok := QueryParameter("/x?p&q=1", "p"); !ok || v != "" {
		t.Errorf("p = %q,%v", v, ok)
	}
	if v, _ := QueryParameter("/x?q=%41&q=2", "q"); v != "%41" {
		t.Errorf("first occurrence, no decoding: %q", v)
	}
	if _, ok := QueryParameter("/x", "q"); ok {
		t.Error("no query string")
	}
	if got, _ := gen(t, []Policy{{Kind: HashByQueryParameter, Name: "p"}}, Request{Headers: map[string][]string{":path": {"/x?p"}}}); got != 17241709254077376921 {
		t.Errorf("empty value hash %d", got)
	}
	if v := CookieValue([]string{"x=1; noeq;  sid=\"abc\"", "sid=late"}, "sid"); v != "abc" {
		t.Errorf("cookie %q", v)
	}
	if _, ok := gen(t, []Policy{{Kind: HashBySourceIP}}, Request{SourceIP: "not-an-ip"}); ok {
		t.Error("non-IP source: no hash")
	}
	// Regex rewrite with RE2 group references.
	ps := []Policy{{Kind: HashByHeader, Name: "h", RegexRewrite: &RegexRewrite{Pattern: `^/(\w+)/.*$`, Substitution: `\1-$`}}}
	if got, _ := gen(t, ps, Request{Headers: map[string][]string{"h": {"/svc/x/y"}}}); got != XXHash64("svc-$") {
		t.Error("rewrite with \\1")
	}
	for _, bad := range [][]Policy{{{}}, {{Kind: HashByHeader}}, {{Kind: HashByHeader, Name: "h", RegexRewrite: &RegexRewrite{Pattern: "("}}}} {
		if _, _, err := Generate(bad, Request{}); err == nil {
			t.Errorf("%+v must be rejected", bad)
		}
	}
	// Input header slices are not reordered.
	in := []string{"b", "a"}
	gen(t, []Policy{{Kind: HashByHeader, Name: "h"}}, Request{Headers: map[string][]string{"h": in}})
	if in[0] != "b" {
		t.Error("request mutated")
	}
}
