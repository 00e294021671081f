package route

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// Build routes req through cfg as Envoy's router does. Options pick the
// route configuration; when several remain and their answers differ, a
// *UsageError lists them. A configuration Envoy would refuse (a duplicate
// domain, a regex that does not compile) is a plain error.
func Build(cfg *config.Config, req Request, opt Options, lb Balancers) (*Report, error) {
	srcs, err := pick(sources(cfg), opt)
	if err != nil {
		return nil, err
	}
	var first *Report
	for i, s := range srcs {
		r, err := evaluate(cfg, s, req, lb)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = r
			continue
		}
		if answer(r) != answer(first) {
			var labels []string
			for _, s := range srcs {
				labels = append(labels, s.label())
			}
			return nil, &UsageError{sprintf("%d route configurations route this request differently; choose one with %s or %s: %s", len(srcs), option.RouteConfig, option.Listener, strings.Join(labels, ", "))}
		}
	}
	if len(srcs) > 1 {
		first.note("%d route configurations are loaded and all route this request alike; %s is shown", len(srcs), srcs[0].label())
	}
	return first, nil
}

// answer is what two route configurations must agree on.
func answer(r *Report) string {
	vh := ""
	if r.VirtualHost != nil {
		vh = *r.VirtualHost
	}
	at := ""
	if r.Route != nil {
		at = r.Route.Name + " " + r.Route.Match
	}
	// JSON, not %v: the report holds pointers.
	b, _ := json.Marshal([]any{vh, at, r.Action, r.Clusters, r.Cluster, r.Direct, r.Redirect})
	return string(b)
}

func evaluate(cfg *config.Config, s source, req Request, lb Balancers) (*Report, error) {
	rc := s.rc
	idx, err := newVhostIndex(rc)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", cfg.Sources.Pos(rc), clean(err.Error()))
	}
	r := &Report{RouteConfig: rc.GetName(), Clusters: []ClusterChoice{}, Hosts: []HostShare{}, Notes: []string{}}
	r.step("route configuration %s", s.label())
	if req.Authority == "" {
		vhs := rc.GetVirtualHosts()
		if len(vhs) != 1 || len(vhs[0].GetDomains()) != 1 {
			return nil, &UsageError{sprintf("%s is required: route configuration %s has %d virtual hosts", option.Authority, s.label(), len(vhs))}
		}
		req.Authority = vhs[0].GetDomains()[0]
		r.note("%s defaults to the only domain, %q", option.Authority, req.Authority)
	}
	if req.Method == "" {
		req.Method = "GET"
	}
	host, did := normalizeHost(req.Authority, req.Method, s.hcm, s.port, s.hasPort)
	if did != "" {
		r.step("host %s", did)
	}
	req.Authority = host
	h := requestHeaders(req)
	r.Request = RequestReport{Authority: clean(host), Path: clean(req.Path), Method: clean(req.Method), Headers: map[string]string{}}
	for _, kv := range req.Headers {
		r.Request.Headers[clean(strings.ToLower(kv[0]))] = clean(kv[1])
	}
	c := &routeCtx{cfg: cfg, rc: rc, h: h, path: req.Path, ssl: req.SSL, m: &matcher{}, lb: lb, req: req}
	if err := precompile(cfg, c.m, rc); err != nil {
		return nil, err
	}
	if req.RandomValue != nil {
		c.random, c.hasRnd = *req.RandomValue, true
	}
	defer func() { r.Notes = append(r.Notes, dedupe(c.notes)...) }()
	vh, why := idx.find(host, rc.GetIgnorePortInHostMatching())
	if rc.GetIgnorePortInHostMatching() {
		r.step("ignore_port_in_host_matching: the port is ignored")
	}
	if vh == nil {
		r.Action = ActionNoVirtualHost
		r.step("virtual host: none for %q (%s): Envoy answers 404", host, why)
		return r, nil
	}
	name := vh.GetName()
	r.VirtualHost = &name
	r.step("virtual host %s: %s", name, why)
	proto := h.first("x-forwarded-proto")
	if rt := vh.GetRequireTls(); proto != "https" && (rt == routev3.VirtualHost_ALL || (rt == routev3.VirtualHost_EXTERNAL_ONLY && !req.Internal)) {
		r.Action = ActionSSLRedirect
		r.Redirect = &Redirect{Status: 301, Location: clean("https://" + c.requestHost("https", "") + req.Path)}
		r.step("require_tls %s: a plain-text request is redirected to https (301)", rt)
		return r, nil
	}
	if vh.GetMatcher() != nil && len(vh.GetRoutes()) == 0 {
		r.Action = ActionNoRoute
		r.note("virtual host %q routes by its generic matcher tree, which lbctl does not model", name)
		return r, nil
	}
	for _, rt := range vh.GetRoutes() {
		ok, n := c.matches(rt)
		if c.m.err != nil {
			return nil, fmt.Errorf("%s: %s", cfg.Sources.Pos(rt), clean(c.m.err.Error()))
		}
		if ok {
			act(r, c, rt, n, lb, req)
			if c.m.err != nil {
				return nil, fmt.Errorf("%s: %s", cfg.Sources.Pos(rt), clean(c.m.err.Error()))
			}
			return r, nil
		}
	}
	r.Action = ActionNoRoute
	r.step("route: none of the %d routes matches: Envoy answers 404", len(vh.GetRoutes()))
	return r, nil
}

// act fills the report from the matched route's action.
func act(r *Report, c *routeCtx, rt *routev3.Route, matched int, lb Balancers, req Request) {
	rr := &RouteReport{Name: clean(rt.GetName()), Match: describe(rt.GetMatch()), At: clean(c.cfg.Sources.Pos(rt).String())}
	r.Route = rr
	r.step("route %s: %s at %s", orUnnamed(rr.Name), rr.Match, rr.At)
	switch a := rt.GetAction().(type) {
	case *routev3.Route_Route:
		targets := c.routeAction(r, a.Route)
		if r.Action != ActionWeighted {
			for _, t := range targets {
				r.Clusters = append(r.Clusters, ClusterChoice{Name: t.name, Share: t.share, Weight: t.weight})
			}
		}
		if len(targets) == 1 && targets[0].share == 1 {
			r.Cluster = targets[0].name
			r.MetadataMatch = targets[0].crit
		}
		r.step("action %s", r.Action)
		for _, t := range targets {
			r.step("cluster %s, share %.6g", t.name, t.share)
		}
		compose(r, targets, lb, rt.GetName(), req)
		routeNotes(r, a.Route)
		for _, h := range r.Hosts {
			r.step("host %s/%s, share %.6g", h.Cluster, h.Address, h.Share)
		}
	case *routev3.Route_Redirect:
		r.Action = ActionRedirect
		r.Redirect = c.redirect(a.Redirect, matched)
		r.step("redirect %d to %s", r.Redirect.Status, r.Redirect.Location)
	case *routev3.Route_DirectResponse:
		r.Action = ActionDirect
		d := &DirectResponse{Status: a.DirectResponse.GetStatus()}
		if b := a.DirectResponse.GetBody(); b != nil {
			switch {
			case b.GetFilename() != "":
				r.note("the direct response's body is read from a file at run time")
			case b.GetInlineString() != "":
				n := len(b.GetInlineString())
				d.BodyLength = &n
			default:
				n := len(b.GetInlineBytes())
				d.BodyLength = &n
			}
		}
		r.Direct = d
		r.step("direct response %d", d.Status)
	case *routev3.Route_NonForwardingAction:
		r.Action = ActionNonForwarding
		r.note("non_forwarding: the router forwards nothing (a filter before it answers)")
		r.step("action non_forwarding")
	default:
		r.Action = ActionFilter
		r.note("the route's action is a filter_action, which a filter handles: not modelled")
		r.step("action filter_action")
	}
}

// routeNotes names the route's policies that do not change the choice.
func routeNotes(r *Report, a *routev3.RouteAction) {
	if a.GetRetryPolicy() != nil {
		r.note("the route has a retry policy: a retried request may reach other hosts")
	}
	if n := len(a.GetRequestMirrorPolicies()); n > 0 {
		r.note("the route mirrors requests to %d cluster(s) (shadow traffic, not shown)", n)
	}
	if len(a.GetHashPolicy()) > 0 && r.Hash == nil {
		r.note("the route has a hash_policy: it picks the host only in a RING_HASH or MAGLEV cluster")
	}
}

func orUnnamed(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

func dedupe(in []string) []string {
	var out []string
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
