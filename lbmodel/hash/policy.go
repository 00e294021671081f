package hash

import (
	"fmt"
	"math/bits"
	"net/netip"
	"regexp"
	"slices"
	"strings"
)

// PolicyKind is which RouteAction.Policy specifier is set.
type PolicyKind int

const (
	HashByHeader PolicyKind = iota + 1
	HashByCookie
	HashBySourceIP
	HashByQueryParameter
	HashByFilterState
)

// Policy is one RouteAction.Policy entry (also used by the typed
// RingHash/Maglev consistent_hashing_lb_config.hash_policy).
type Policy struct {
	Kind PolicyKind
	// Name is the header name, cookie name, query parameter name or
	// filter-state key, depending on Kind.
	Name string
	// CookieTTLSet: the cookie policy has a ttl, so a missing cookie is
	// generated (and its value hashed) instead of giving no hash.
	CookieTTLSet bool
	// RegexRewrite applies to header values (RE2 pattern, replace-all);
	// Substitution uses RE2's \1 style group references.
	RegexRewrite *RegexRewrite
	Terminal     bool
}

// RegexRewrite is envoy.type.matcher.v3.RegexMatchAndSubstitute.
type RegexRewrite struct {
	Pattern, Substitution string
}

// Request is what a hash policy reads from a request.
type Request struct {
	// Headers by name (matched case-insensitively); each element is one
	// header entry. ":path" carries the query string; "cookie" the cookies.
	Headers map[string][]string
	// SourceIP is the downstream remote IP without port ("" = none).
	SourceIP string
	// RemoteAddress and LocalAddress (ip:port) feed the generated cookie of
	// a cookie policy with a ttl; both are needed.
	RemoteAddress, LocalAddress string
	// FilterState holds the hash of each Hashable filter-state object.
	FilterState map[string]uint64
}

func (r Request) header(name string) []string {
	var out []string
	for k, v := range r.Headers {
		if strings.EqualFold(k, name) {
			out = append(out, v...)
		}
	}
	return out
}

// ValidatePolicies rejects what HashPolicyImpl::create and the router
// config reject: no specifier, an empty name, or a bad rewrite regex.
func ValidatePolicies(ps []Policy) error {
	for i, p := range ps {
		if p.Kind < HashByHeader || p.Kind > HashByFilterState {
			return fmt.Errorf("hash_policy[%d]: no policy specifier set", i)
		}
		if p.Kind != HashBySourceIP && p.Name == "" {
			return fmt.Errorf("hash_policy[%d]: name must not be empty", i)
		}
		if p.RegexRewrite != nil {
			if _, err := regexp.Compile(p.RegexRewrite.Pattern); err != nil {
				return fmt.Errorf("hash_policy[%d]: regex_rewrite: %v", i, err)
			}
		}
	}
	return nil
}

// Generate is HashPolicyImpl::generateHash (source/common/http/hash_policy.cc):
// each policy that yields a value n folds it in as acc = rotl64(acc,1) ^ n
// (the first value is taken as is), and a terminal policy stops the walk once
// any hash exists. ok is false when no policy yields a hash (Envoy then picks
// at random).
func Generate(ps []Policy, req Request) (hash uint64, ok bool, err error) {
	if err := ValidatePolicies(ps); err != nil {
		return 0, false, err
	}
	for _, p := range ps {
		if n, yes := policyHash(p, req); yes {
			if ok {
				hash = bits.RotateLeft64(hash, 1)
			}
			hash ^= n
			ok = true
		}
		if p.Terminal && ok {
			break
		}
	}
	return hash, ok, nil
}

func policyHash(p Policy, req Request) (uint64, bool) {
	switch p.Kind {
	case HashByHeader:
		// HeaderHashMethod: every entry, rewritten, sorted, chained.
		vals := req.header(p.Name)
		if len(vals) == 0 {
			return 0, false
		}
		if p.RegexRewrite != nil {
			re := regexp.MustCompile(p.RegexRewrite.Pattern) // validated above
			sub := re2Substitution(p.RegexRewrite.Substitution)
			for i, v := range vals {
				vals[i] = re.ReplaceAllString(v, sub)
			}
		}
		slices.Sort(vals)
		return XXHash64Chain(vals, 0), true
	case HashByCookie:
		// CookieHashMethod: the cookie's value, else a generated one with a ttl.
		if v := CookieValue(req.header("cookie"), p.Name); v != "" {
			return XXHash64(v), true
		}
		if p.CookieTTLSet {
			if v := GeneratedCookie(req.RemoteAddress, req.LocalAddress); v != "" {
				return XXHash64(v), true
			}
		}
		return 0, false
	case HashBySourceIP:
		// IpHashMethod: remote IP text without port.
		ip, err := netip.ParseAddr(req.SourceIP)
		if err != nil {
			return 0, false
		}
		return XXHash64(ip.String()), true
	case HashByQueryParameter:
		// QueryParameterHashMethod: first occurrence, no percent-decoding.
		paths := req.header(":path")
		if len(paths) == 0 {
			return 0, false
		}
		if v, found := QueryParameter(paths[0], p.Name); found {
			return XXHash64(v), true
		}
		return 0, false
	case HashByFilterState:
		v, found := req.FilterState[p.Name]
		return v, found
	}
	return 0, false
}

// re2Substitution turns RE2's \N group references (and \\) into Go's ${N}
// form, escaping Go's '$'.
func re2Substitution(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c == '\\' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			b.WriteString("${" + s[i+1:i+2] + "}")
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// CookieValue is Http::Utility::parseCookieValue: the first cookie named
// name across the cookie header entries, split on ';', leading spaces
// skipped, entries without '=' ignored, surrounding double quotes removed.
func CookieValue(cookieHeaders []string, name string) string {
	for _, h := range cookieHeaders {
		for _, part := range strings.Split(h, ";") {
			part = strings.TrimLeft(part, " \t")
			k, v, found := strings.Cut(part, "=")
			if !found || k != name {
				continue
			}
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1]
			}
			return v
		}
	}
	return ""
}

// GeneratedCookie is generateCookie (thread_aware_lb_impl.cc): 16 lower-case
// hex digits of xxHash64(remote.asString() + local.asString()); "" when
// either address is missing.
func GeneratedCookie(remote, local string) string {
	if remote == "" || local == "" {
		return ""
	}
	return fmt.Sprintf("%016x", XXHash64(remote+local))
}

// QueryParameter is QueryParamsMulti::parseQueryString(path).getFirstValue(name):
// the text after the first '?' split on '&', "k" without '=' meaning "".
func QueryParameter(path, name string) (string, bool) {
	_, q, found := strings.Cut(path, "?")
	if !found {
		return "", false
	}
	for _, param := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(param, "=")
		if k == name {
			return v, true
		}
	}
	return "", false
}
