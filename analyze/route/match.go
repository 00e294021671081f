package route

import (
	"fmt"
	"regexp"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	uritv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/path/match/uri_template/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// routeCtx is what a route's match sees.
type routeCtx struct {
	cfg    *config.Config
	rc     *routev3.RouteConfiguration
	h      headers
	path   string // :path as sent, query included
	random uint64
	hasRnd bool
	ssl    bool
	m      *matcher
	notes  []string
	lb     Balancers // for use_hash_policy's hash
	req    Request
}

// matchPath is the path route matchers compare: query and fragment
// removed (PathUtil::removeQueryAndFragment), and the path parameters
// after ';' when ignore_path_parameters_in_path_matching is set
// (sanitizePathBeforePathMatching).
func (c *routeCtx) matchPath() string {
	p := c.path
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if c.rc.GetIgnorePathParametersInPathMatching() {
		if i := strings.IndexByte(p, ';'); i >= 0 {
			p = p[:i]
		}
	}
	return p
}

// matches is RouteEntryImplBase::matchRoute plus the route's path
// matcher. It returns the length of path matched (for prefix_rewrite),
// -1 for none.
func (c *routeCtx) matches(r *routev3.Route) (bool, int) {
	rm := r.GetMatch()
	ci := rm.GetCaseSensitive() != nil && !rm.GetCaseSensitive().GetValue()
	p := c.matchPath()
	eq := func(a, b string) bool {
		if ci {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	pathOK, n := false, -1
	switch ps := rm.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Prefix:
		pathOK = len(p) >= len(ps.Prefix) && eq(p[:len(ps.Prefix)], ps.Prefix)
		n = len(ps.Prefix)
	case *routev3.RouteMatch_Path:
		pathOK, n = eq(p, ps.Path), len(p)
	case *routev3.RouteMatch_SafeRegex:
		pathOK, n = c.m.fullMatch(ps.SafeRegex.GetRegex(), p), len(p)
	case *routev3.RouteMatch_PathSeparatedPrefix:
		x := ps.PathSeparatedPrefix
		pathOK = len(p) >= len(x) && eq(p[:len(x)], x) && (len(p) == len(x) || p[len(x)] == '/')
		n = len(x)
	case *routev3.RouteMatch_ConnectMatcher_:
		m := c.h.first(":method")
		pathOK = m == "CONNECT" || (m == "" && c.h.first(":protocol") == "connect-udp")
	case *routev3.RouteMatch_PathMatchPolicy:
		re, err := c.template(ps.PathMatchPolicy.GetTypedConfig())
		if err != nil {
			if c.m.err == nil {
				c.m.err = err
			}
			return false, -1
		}
		pathOK, n = re.MatchString(p), len(p)
	default:
		return false, -1
	}
	if !pathOK {
		return false, -1
	}
	return c.matchRoute(rm), n
}

// matchRoute is RouteEntryImplBase::matchRoute: the runtime fraction,
// headers, query parameters, cookies, gRPC, TLS and dynamic metadata.
func (c *routeCtx) matchRoute(rm *routev3.RouteMatch) bool {
	if rf := rm.GetRuntimeFraction(); rf != nil && !c.runtime(rf.GetDefaultValue(), rf.GetRuntimeKey()) {
		return false
	}
	for _, hm := range rm.GetHeaders() {
		if !c.m.headerMatch(hm, c.h) {
			return false
		}
	}
	if len(rm.GetQueryParameters()) > 0 {
		q := parseQuery(c.path)
		for _, qm := range rm.GetQueryParameters() {
			if !c.m.queryMatch(qm, q) {
				return false
			}
		}
	}
	for _, cm := range rm.GetCookies() {
		if !c.m.cookieMatch(cm, c.h) {
			return false
		}
	}
	if rm.GetGrpc() != nil && !isGrpc(c.h.first("content-type")) {
		return false
	}
	if t := rm.GetTlsContext(); t != nil {
		// --ssl means a presented and validated client certificate.
		if t.GetPresented() != nil && t.GetPresented().GetValue() != c.ssl {
			return false
		}
		if t.GetValidated() != nil && t.GetValidated().GetValue() != c.ssl {
			return false
		}
	}
	for _, dm := range rm.GetDynamicMetadata() {
		c.notes = append(c.notes, "a route matches on dynamic_metadata, which filters set at run time: taken as absent")
		if !dm.GetInvert() {
			return false
		}
	}
	if len(rm.GetFilterState()) > 0 {
		c.notes = append(c.notes, "a route matches on filter_state, which filters set at run time: taken as absent (no match)")
		return false
	}
	return true
}

// isGrpc is Grpc::Common::hasGrpcContentType: exactly application/grpc
// or application/grpc+something (not grpc-web).
func isGrpc(ct string) bool {
	const g = "application/grpc"
	return strings.HasPrefix(ct, g) && (len(ct) == len(g) || ct[len(g)] == '+')
}

// runtime is featureEnabled with no runtime loaded: the default fraction,
// random_value % denominator < numerator (evaluateRuntimeMatch). Without a
// random value the route is taken to match only when it always does.
func (c *routeCtx) runtime(fp *typev3.FractionalPercent, key string) bool {
	den := denominator(fp)
	num := uint64(fp.GetNumerator())
	if num >= den {
		return true
	}
	if num == 0 {
		c.notes = append(c.notes, sprintf("runtime_fraction %q is 0/%d (no runtime loaded: the default): the route never matches", key, den))
		return false
	}
	if !c.hasRnd {
		// The stream's random value decides: no input of the request does.
		c.notes = append(c.notes, sprintf("runtime_fraction %q matches %d/%d of requests (no runtime loaded: the default), by the stream's random value; without %s lbctl skips that route, so this answer is the one for the other %d/%d (give %s N to follow one request)", key, num, den, option.RandomValue, den-num, den, option.RandomValue))
		return false
	}
	ok := c.random%den < num
	c.notes = append(c.notes, sprintf("runtime_fraction %q: random value %d %% %d = %d, matches when below %d: %v", key, c.random, den, c.random%den, num, ok))
	return ok
}

func denominator(fp *typev3.FractionalPercent) uint64 {
	switch fp.GetDenominator() {
	case typev3.FractionalPercent_TEN_THOUSAND:
		return 10000
	case typev3.FractionalPercent_MILLION:
		return 1000000
	}
	return 100
}

// template compiles an envoy.path.match.uri_template path_template into
// a regex as uri_template's convertPathPatternSyntaxToRegex does: "*" one
// segment, "**" any number (last only), {name} / {name=*} / {name=**}
// likewise, the rest literal.
func (c *routeCtx) template(a *anypb.Any) (*regexp.Regexp, error) {
	var t uritv3.UriTemplateMatchConfig
	if m, ok := c.cfg.Sources.Unpacked(a).(*uritv3.UriTemplateMatchConfig); ok {
		t.PathTemplate = m.GetPathTemplate()
	} else if err := a.UnmarshalTo(&t); err != nil {
		return nil, fmt.Errorf("path_match_policy %s is not modelled (only envoy.path.match.uri_template)", a.GetTypeUrl())
	}
	return templateRegex(t.GetPathTemplate())
}

const (
	segChars   = `[a-zA-Z0-9\-._~%!$&'()+,;:@=]+`
	multiChars = `[a-zA-Z0-9\-._~%!$&'()+,;:@=/]*`
)

func templateRegex(tpl string) (*regexp.Regexp, error) {
	if !strings.HasPrefix(tpl, "/") || len(tpl) > 256 {
		return nil, fmt.Errorf("path_template %q is invalid (must start with '/', at most 256 bytes)", tpl)
	}
	var b strings.Builder
	segs := strings.Split(tpl[1:], "/")
	for i, s := range segs {
		b.WriteString("/")
		for s != "" {
			switch {
			case strings.HasPrefix(s, "**"):
				if i != len(segs)-1 {
					return nil, fmt.Errorf("path_template %q: ** must be the last segment", tpl)
				}
				b.WriteString(multiChars)
				s = s[2:]
			case s[0] == '*':
				b.WriteString(segChars)
				s = s[1:]
			case s[0] == '{':
				end := strings.IndexByte(s, '}')
				if end < 0 {
					return nil, fmt.Errorf("path_template %q: unclosed {", tpl)
				}
				_, op, _ := strings.Cut(s[1:end], "=")
				switch op {
				case "", "*":
					b.WriteString(segChars)
				case "**":
					if i != len(segs)-1 {
						return nil, fmt.Errorf("path_template %q: ** must be the last segment", tpl)
					}
					b.WriteString(multiChars)
				default:
					b.WriteString(regexp.QuoteMeta(op))
				}
				s = s[end+1:]
			default:
				j := strings.IndexAny(s, "*{")
				if j < 0 {
					j = len(s)
				}
				b.WriteString(regexp.QuoteMeta(s[:j]))
				s = s[j:]
			}
		}
	}
	return regexp.Compile("^" + b.String() + "$")
}

// describe is the route's match in a few words ("prefix /api").
func describe(rm *routev3.RouteMatch) string {
	var s string
	switch ps := rm.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Prefix:
		s = "prefix " + ps.Prefix
	case *routev3.RouteMatch_Path:
		s = "path " + ps.Path
	case *routev3.RouteMatch_SafeRegex:
		s = "safe_regex " + ps.SafeRegex.GetRegex()
	case *routev3.RouteMatch_PathSeparatedPrefix:
		s = "path_separated_prefix " + ps.PathSeparatedPrefix
	case *routev3.RouteMatch_ConnectMatcher_:
		s = "connect_matcher"
	case *routev3.RouteMatch_PathMatchPolicy:
		s = "path_match_policy"
	default:
		s = "(no path matcher)"
	}
	if cs := rm.GetCaseSensitive(); cs != nil && !cs.GetValue() {
		s += " (case-insensitive)"
	}
	var more []string
	if n := len(rm.GetHeaders()); n > 0 {
		more = append(more, fmt.Sprintf("%d header matcher(s)", n))
	}
	if n := len(rm.GetQueryParameters()); n > 0 {
		more = append(more, fmt.Sprintf("%d query parameter matcher(s)", n))
	}
	if rm.GetGrpc() != nil {
		more = append(more, "grpc")
	}
	if rm.GetRuntimeFraction() != nil {
		more = append(more, "runtime_fraction")
	}
	if rm.GetTlsContext() != nil {
		more = append(more, "tls_context")
	}
	if len(more) > 0 {
		s += ", " + strings.Join(more, ", ")
	}
	return clean(s)
}
