package route

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

// Regex limits: a config's regex larger than these is refused with a clear
// error rather than compiled (Envoy's own default refuses RE2 programs
// over 100 instructions, re2.max_program_size.error_level; ours is a
// looser bound on work, as Go's program sizes differ from RE2's).
const (
	MaxRegexLen  = 16 << 10
	MaxRegexInst = 20000
)

// compileRegex compiles an RE2 pattern as Envoy's safe_regex does; Go's
// regexp is RE2 syntax and linear-time. The match is a full match, so the
// pattern is anchored.
func compileRegex(pattern string) (*regexp.Regexp, error) {
	if len(pattern) > MaxRegexLen {
		return nil, fmt.Errorf("regex of %d bytes is over lbctl's limit of %d", len(pattern), MaxRegexLen)
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("regex %s does not compile: %v", short(pattern), err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, fmt.Errorf("regex %s does not compile: %v", short(pattern), err)
	}
	if len(prog.Inst) > MaxRegexInst {
		return nil, fmt.Errorf("regex %s compiles to %d instructions, over lbctl's limit of %d", short(pattern), len(prog.Inst), MaxRegexInst)
	}
	return regexp.Compile(`^(?:` + pattern + `)$`)
}

// short quotes a pattern for a message, cut after 60 bytes.
func short(pattern string) string {
	if len(pattern) > 60 {
		return strconv.Quote(pattern[:60]) + "…"
	}
	return strconv.Quote(pattern)
}

// matcher evaluates config matchers, compiling each regex once and
// keeping the first compile error.
type matcher struct {
	cache map[string]*regexp.Regexp
	err   error
}

func (m *matcher) regex(pattern string) *regexp.Regexp {
	if re, ok := m.cache[pattern]; ok {
		return re
	}
	re, err := compileRegex(pattern)
	if err != nil && m.err == nil {
		m.err = err
	}
	if m.cache == nil {
		m.cache = map[string]*regexp.Regexp{}
	}
	m.cache[pattern] = re
	return re
}

func (m *matcher) fullMatch(pattern, v string) bool {
	re := m.regex(pattern)
	return re != nil && re.MatchString(v)
}

// stringMatch is Matchers::StringMatcherImpl::match.
func (m *matcher) stringMatch(sm *matcherv3.StringMatcher, v string) bool {
	ic := sm.GetIgnoreCase()
	eq := func(a, b string) bool {
		if ic {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	switch p := sm.GetMatchPattern().(type) {
	case *matcherv3.StringMatcher_Exact:
		return eq(v, p.Exact)
	case *matcherv3.StringMatcher_Prefix:
		return len(v) >= len(p.Prefix) && eq(v[:len(p.Prefix)], p.Prefix)
	case *matcherv3.StringMatcher_Suffix:
		return len(v) >= len(p.Suffix) && eq(v[len(v)-len(p.Suffix):], p.Suffix)
	case *matcherv3.StringMatcher_Contains:
		if ic {
			return strings.Contains(strings.ToLower(v), strings.ToLower(p.Contains))
		}
		return strings.Contains(v, p.Contains)
	case *matcherv3.StringMatcher_SafeRegex:
		return m.fullMatch(p.SafeRegex.GetRegex(), v)
	}
	return false
}

// headerMatch is HeaderUtility::HeaderData's matchesHeaders: a missing
// header fails whatever invert_match says, unless
// treat_missing_header_as_empty makes it ""; present_match (and a matcher
// with no specifier) compares presence, then inverts.
func (m *matcher) headerMatch(hm *routev3.HeaderMatcher, h headers) bool {
	v, ok := h.joined(hm.GetName())
	present := ok || hm.GetTreatMissingHeaderAsEmpty()
	switch s := hm.GetHeaderMatchSpecifier().(type) {
	case *routev3.HeaderMatcher_PresentMatch:
		return (present == s.PresentMatch) != hm.GetInvertMatch()
	case nil:
		return present != hm.GetInvertMatch()
	case *routev3.HeaderMatcher_ExactMatch:
		// The deprecated exact_match with an empty value is a presence
		// match (HeaderData's constructor).
		if s.ExactMatch == "" {
			return present != hm.GetInvertMatch()
		}
	}
	if !ok {
		if !hm.GetTreatMissingHeaderAsEmpty() {
			return false
		}
		v = ""
	}
	var r bool
	switch s := hm.GetHeaderMatchSpecifier().(type) {
	case *routev3.HeaderMatcher_ExactMatch:
		r = v == s.ExactMatch
	case *routev3.HeaderMatcher_SafeRegexMatch:
		r = m.fullMatch(s.SafeRegexMatch.GetRegex(), v)
	case *routev3.HeaderMatcher_RangeMatch:
		n, err := strconv.ParseInt(v, 10, 64)
		r = err == nil && n >= s.RangeMatch.GetStart() && n < s.RangeMatch.GetEnd()
	case *routev3.HeaderMatcher_PrefixMatch:
		r = strings.HasPrefix(v, s.PrefixMatch)
	case *routev3.HeaderMatcher_SuffixMatch:
		r = strings.HasSuffix(v, s.SuffixMatch)
	case *routev3.HeaderMatcher_ContainsMatch:
		r = strings.Contains(v, s.ContainsMatch)
	case *routev3.HeaderMatcher_StringMatch:
		r = m.stringMatch(s.StringMatch, v)
	}
	return r != hm.GetInvertMatch()
}

// queryMatch is ConfigUtility::QueryParameterMatcher::matches: the first
// value of the parameter; absent never matches; present_match or no
// matcher accept any value.
func (m *matcher) queryMatch(qm *routev3.QueryParameterMatcher, params map[string]string) bool {
	v, ok := params[qm.GetName()]
	if !ok {
		return false
	}
	if qm.GetPresentMatch() || qm.GetStringMatch() == nil {
		return true
	}
	return m.stringMatch(qm.GetStringMatch(), v)
}

// parseQuery is QueryParamsMulti::parseQueryString's first values: the
// part after '?' up to '#', split on '&', not decoded.
func parseQuery(path string) map[string]string {
	out := map[string]string{}
	i := strings.IndexByte(path, '?')
	if i < 0 {
		return out
	}
	q := path[i+1:]
	if j := strings.IndexByte(q, '#'); j >= 0 {
		q = q[:j]
	}
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		if _, seen := out[k]; !seen {
			out[k] = v
		}
	}
	return out
}

// cookieMatch is a CookieMatcher: an absent cookie fails, then invert.
func (m *matcher) cookieMatch(cm *routev3.CookieMatcher, h headers) bool {
	v, ok := h.cookie(cm.GetName())
	if !ok {
		return false
	}
	return m.stringMatch(cm.GetStringMatch(), v) != cm.GetInvertMatch()
}
