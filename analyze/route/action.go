package route

import (
	"regexp"
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// target is one cluster the action may send the request to.
type target struct {
	name   string
	share  float64
	weight uint32
	crit   map[string]any // merged metadata_match (envoy.lb)
}

// routeAction fills the report from a RouteAction and returns the
// targets that receive the request.
func (c *routeCtx) routeAction(r *Report, a *routev3.RouteAction) []target {
	routeMD, _ := config.MetadataMatch(a.GetMetadataMatch())
	switch {
	case a.GetCluster() != "":
		r.Action = ActionCluster
		return []target{{name: a.GetCluster(), share: 1, weight: 1, crit: merge(routeMD, nil)}}
	case a.GetClusterHeader() != "":
		r.Action = ActionClusterHeader
		v := c.h.first(a.GetClusterHeader())
		if v == "" {
			r.note("cluster_header %q is absent: the cluster name is empty, so Envoy finds no cluster and answers %d (cluster_not_found_response_code)", a.GetClusterHeader(), notFound(a))
			return nil
		}
		r.note("cluster_header %q names the cluster", a.GetClusterHeader())
		return []target{{name: v, share: 1, weight: 1, crit: merge(routeMD, nil)}}
	case a.GetWeightedClusters() != nil:
		r.Action = ActionWeighted
		return c.weighted(r, a.GetWeightedClusters(), routeMD, a)
	case a.GetClusterSpecifierPlugin() != "" || a.GetInlineClusterSpecifierPlugin() != nil:
		r.Action = ActionPlugin
		r.note("a cluster_specifier_plugin chooses the cluster at run time: not modelled")
		return nil
	}
	r.Action = ActionNoRoute
	r.note("the route action names no cluster")
	return nil
}

func notFound(a *routev3.RouteAction) int {
	if a.GetClusterNotFoundResponseCode() == routev3.RouteAction_NOT_FOUND {
		return 404
	}
	if a.GetClusterNotFoundResponseCode() == routev3.RouteAction_INTERNAL_SERVER_ERROR {
		return 500
	}
	return defaultClusterNotFound
}

// merge is the weighted cluster's metadata_match over the route's
// (MetadataMatchCriteriaImpl::mergeMatchCriteria): keys of the cluster
// entry win.
func merge(route, cluster map[string]any) map[string]any {
	if route == nil && cluster == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range route {
		out[k] = v
	}
	for k, v := range cluster {
		out[k] = v
	}
	return out
}

// weighted is WeightedClusterSpecifierPlugin::pickWeightedCluster: the
// random value (or the header_name header's, when it holds one number)
// modulo the total weight picks the entry whose cumulative interval holds
// it. Without a random value each entry gets weight/total.
func (c *routeCtx) weighted(r *Report, wc *routev3.WeightedCluster, routeMD map[string]any, a *routev3.RouteAction) []target {
	var total uint64
	var all []target
	for _, e := range wc.GetClusters() {
		w := e.GetWeight().GetValue()
		total += uint64(w)
		md, _ := config.MetadataMatch(e.GetMetadataMatch())
		name := e.GetName()
		if hn := e.GetClusterHeader(); hn != "" {
			name = c.h.first(hn)
			if name == "" {
				r.note("weighted cluster entry's cluster_header %q is absent: no cluster (%d)", hn, notFound(a))
			}
		}
		all = append(all, target{name: name, weight: w, crit: merge(routeMD, md)})
	}
	if wc.GetRuntimeKeyPrefix() != "" {
		r.note("runtime_key_prefix %q ignored: no runtime is loaded, so the configured weights apply", wc.GetRuntimeKeyPrefix())
	}
	if total == 0 {
		r.note("the weighted clusters' weights add up to 0: Envoy rejects this route configuration")
		return nil
	}
	for i := range all {
		all[i].share = float64(all[i].weight) / float64(total)
	}
	rnd, has := c.random, c.hasRnd
	from := option.RandomValue.String()
	if wc.GetUseHashPolicy().GetValue() {
		rnd, has, from = c.routeHash(r, a, rnd, has, from)
	}
	if hn := wc.GetHeaderName(); hn != "" {
		set := false
		if vs := c.h[strings.ToLower(hn)]; len(vs) == 1 {
			if v, err := strconv.ParseUint(vs[0], 10, 64); err == nil {
				rnd, has, from, set = v, true, sprintf("header %q", hn), true
			}
		}
		if !set {
			r.note("header_name %q does not hold one number: the stream's random value is used", hn)
		}
	}
	for _, t := range all {
		r.Clusters = append(r.Clusters, ClusterChoice{Name: t.name, Share: t.share, Weight: t.weight})
	}
	if !has {
		return nonEmpty(all)
	}
	sel := rnd % total
	var begin uint64
	for _, t := range all {
		end := begin + uint64(t.weight)
		if sel >= begin && sel < end {
			r.note("weighted clusters: %s %d %% total weight %d = %d falls in [%d, %d): %s", from, rnd, total, sel, begin, end, t.name)
			t.share = 1
			if t.name == "" {
				return nil
			}
			return []target{t}
		}
		begin = end
	}
	return nil
}

// routeHash is use_hash_policy in pickWeightedCluster: the route's
// hash_policy's hash of the request replaces the stream's random value
// when it yields one (a header_name value still wins over both).
func (c *routeCtx) routeHash(r *Report, a *routev3.RouteAction, rnd uint64, has bool, from string) (uint64, bool, string) {
	switch {
	case len(a.GetHashPolicy()) == 0:
		r.note("use_hash_policy: the route has no hash_policy, so the stream's random value picks the weighted cluster")
	case c.lb.RouteHash == nil:
		r.note("use_hash_policy: Envoy picks the weighted cluster by the route's hash policy's hash; lbctl uses the random value instead")
	default:
		h, ok, desc, err := c.lb.RouteHash(a.GetHashPolicy(), c.req)
		switch {
		case err != nil:
			r.note("use_hash_policy: %v", err)
		case ok:
			return h, true, sprintf("use_hash_policy: the route's hash (%s) 0x%016x =", desc, h)
		default:
			r.note("use_hash_policy: the route's hash_policy (%s) yields no hash for this request, so the stream's random value picks the weighted cluster", desc)
		}
	}
	return rnd, has, from
}

func nonEmpty(ts []target) []target {
	var out []target
	for _, t := range ts {
		if t.name != "" && t.share > 0 {
			out = append(out, t)
		}
	}
	return out
}

// redirectCodes are RedirectAction.RedirectResponseCode's statuses.
var redirectCodes = map[routev3.RedirectAction_RedirectResponseCode]int{
	routev3.RedirectAction_MOVED_PERMANENTLY: 301, routev3.RedirectAction_FOUND: 302,
	routev3.RedirectAction_SEE_OTHER: 303, routev3.RedirectAction_TEMPORARY_REDIRECT: 307,
	routev3.RedirectAction_PERMANENT_REDIRECT: 308,
}

// redirect computes the Location as the router does for a redirect
// route: the redirect's prefix_rewrite / regex_rewrite applied to :path
// first (rewritePathHeader), then Utility::newUri.
func (c *routeCtx) redirect(ra *routev3.RedirectAction, matched int) *Redirect {
	path := c.path
	if pr := ra.GetPrefixRewrite(); pr != "" && matched >= 0 && matched <= len(path) {
		path = pr + path[matched:]
	} else if rr := ra.GetRegexRewrite(); rr != nil {
		path = c.regexRewrite(rr, path)
	}
	scheme := c.h.first(":scheme")
	if ra.GetSchemeRedirect() != "" {
		scheme = ra.GetSchemeRedirect()
	} else if ra.GetHttpsRedirect() {
		scheme = "https"
	}
	port := ""
	if ra.GetPortRedirect() != 0 {
		port = ":" + strconv.FormatUint(uint64(ra.GetPortRedirect()), 10)
	}
	host := ra.GetHostRedirect()
	if host == "" {
		host = c.requestHost(scheme, port)
	}
	pathRedirect, hasQuery := ra.GetPathRedirect(), strings.Contains(ra.GetPathRedirect(), "?")
	if pathRedirect != "" {
		if !hasQuery {
			if i := strings.IndexByte(path, '?'); i >= 0 {
				pathRedirect += path[i:]
			}
		}
		path = pathRedirect
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if !hasQuery && ra.GetStripQuery() {
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
	}
	return &Redirect{Status: redirectCodes[ra.GetResponseCode()], Location: clean(scheme + "://" + host + port + path)}
}

// requestHost is Utility::processRequestHost: the request's host, its
// port dropped for a port_redirect, or when the scheme changes and the
// port is the old scheme's default.
func (c *routeCtx) requestHost(scheme, newPort string) string {
	host := c.h.first(":authority")
	if host == "" {
		return host
	}
	end := -1
	if host[0] == '[' {
		if i := strings.LastIndex(host, "]:"); i >= 0 {
			end = i + 1
		}
	} else {
		end = strings.LastIndexByte(host, ':')
	}
	if end < 0 {
		return host
	}
	port, proto := host[end:], c.h.first("x-forwarded-proto")
	remove := newPort != ""
	if scheme != proto {
		remove = remove || (proto == "https" && port == ":443") || (proto == "http" && port == ":80")
	}
	if remove {
		return host[:end]
	}
	return host
}

// regexRewrite applies a RegexMatchAndSubstitute to the path without its
// query, then puts the query back (RouteEntryImplBase's regex rewrite).
func (c *routeCtx) regexRewrite(rr *matcherv3.RegexMatchAndSubstitute, path string) string {
	re := c.m.regex(rr.GetPattern().GetRegex())
	if re == nil {
		return path
	}
	p, q := path, ""
	if i := strings.IndexByte(path, '?'); i >= 0 {
		p, q = path[:i], path[i:]
	}
	// The compiled regex is anchored for full matches; substitution
	// replaces every match of the pattern itself.
	un, err := compileUnanchored(rr.GetPattern().GetRegex())
	if err != nil {
		return path
	}
	return un.ReplaceAllString(p, re2Substitution(rr.GetSubstitution())) + q
}

func compileUnanchored(pattern string) (*regexp.Regexp, error) {
	if _, err := compileRegex(pattern); err != nil {
		return nil, err
	}
	return regexp.Compile(pattern)
}

// re2Substitution turns RE2's \N group references into Go's ${N}.
func re2Substitution(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '$':
			b.WriteString("$$")
		case s[i] == '\\' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			b.WriteString("${" + string(s[i+1]) + "}")
			i++
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
