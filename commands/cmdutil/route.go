package cmdutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/expect"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/urfave/cli/v3"
)

// RouteBalancers wires explain, the subset LB and the hash LB into the
// route report, under the what-if options opt: what `lbctl route` and
// `lbctl test` request tests both use, so they agree.
func RouteBalancers(cfg *config.Config, opt model.Options) route.Balancers {
	return routeBalancers(cfg, opt, explain.Build)
}

// explainFunc builds explain reports: explain.Build, or a test's counter.
type explainFunc func(*config.Config, []*config.Cluster, model.Options) (*traffic.Report, error)

// routeBalancers is RouteBalancers building explain reports with build.
func routeBalancers(cfg *config.Config, opt model.Options, build explainFunc) route.Balancers {
	find := func(name string) (*config.Cluster, error) {
		if cl := cfg.Cluster(name); cl != nil {
			return cl, nil
		}
		return nil, fmt.Errorf("not in the loaded config: its hosts are unknown")
	}
	// An aggregate that needs no composing goes on to Hosts: both read
	// the one explain report.
	explained := map[string]explained{}
	explainOf := func(cl *config.Cluster) (traffic.ClusterReport, error) {
		e, ok := explained[cl.Name()]
		if !ok {
			e.cr, e.err = explainOne(build, cfg, cl, opt)
			explained[cl.Name()] = e
		}
		return e.cr, e.err
	}
	return route.Balancers{
		Hosts: func(name string) (route.ClusterHosts, error) {
			cl, err := find(name)
			if err != nil {
				return route.ClusterHosts{}, err
			}
			cr, err := explainOf(cl)
			if err != nil {
				return route.ClusterHosts{}, err
			}
			return route.FromTraffic(cr), nil
		},
		Subset: func(name string, crit map[string]any, routeName string, req route.Request) (route.ClusterHosts, bool, error) {
			cl, err := find(name)
			if err != nil {
				return route.ClusterHosts{}, false, err
			}
			return SubsetHosts(cfg, cl, crit, routeName, req, opt)
		},
		Aggregate: func(name string, crit map[string]any, routeName string, req route.Request) (route.ClusterHosts, bool, error) {
			cl, err := find(name)
			if err != nil {
				return route.ClusterHosts{}, false, err
			}
			return aggregateHosts(cfg, cl, explainOf, crit, routeName, req, opt)
		},
		RouteHash: func(ps []*routev3.RouteAction_HashPolicy, req route.Request) (uint64, bool, string, error) {
			return hashing.RequestHash(ps, hashRequest(req))
		},
		Hash: func(name, routeName string, req route.Request) (*route.HashPick, error) {
			cl, err := find(name)
			if err != nil || !model.IsHashPolicy(model.Get(cfg, cl).Policy) {
				return nil, nil
			}
			return hashPick(cfg, cl, hashing.HashOptions{Route: routeName}, req)
		},
	}
}

// explained is one cluster's explain report, or why there is none.
type explained struct {
	cr  traffic.ClusterReport
	err error
}

// explainOne is cl's explain report under opt, built by build.
func explainOne(build explainFunc, cfg *config.Config, cl *config.Cluster, opt model.Options) (traffic.ClusterReport, error) {
	rep, err := build(cfg, []*config.Cluster{cl}, opt)
	if err != nil {
		return traffic.ClusterReport{}, err
	}
	return rep.Clusters[0], nil
}

// hashPick looks req up through cl's hash policy with opt (a subset's
// pool in opt.Pool): the one host, or nil when no hash or no host results.
func hashPick(cfg *config.Config, cl *config.Cluster, opt hashing.HashOptions, req route.Request) (*route.HashPick, error) {
	hr := hashRequest(req)
	opt.Request = &hr
	rep, err := hashing.Build(cfg, cl, opt)
	if err != nil {
		return nil, err
	}
	if len(rep.Lookups) == 0 {
		return nil, nil
	}
	l := rep.Lookups[0]
	if l.Hash == nil || l.Host == nil {
		return nil, nil
	}
	return &route.HashPick{Cluster: cl.Name(), Policy: HashPolicyLabel(rep.HashPolicy), Hash: fmt.Sprintf("0x%016x", *l.Hash), Host: *l.Host}, nil
}

func hashRequest(req route.Request) hashing.HashRequest {
	return hashing.HashRequest{Headers: req.Headers, Cookies: req.Cookies, SourceIP: req.SourceIP, Path: req.Path}
}

// HashPolicyLabel is the request hash policies as the contract shows
// them ("header x-user"), several joined by "; ".
func HashPolicyLabel(src *hashing.HashPolicySource) string {
	if src == nil || len(src.Policies) == 0 {
		return ""
	}
	return strings.Join(src.Policies, "; ")
}

// RouteRequestFlags are the flags describing the one request `route`
// asks about.
func RouteRequestFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "path", Usage: "the request's :path, with any query string (required)"},
		&cli.StringFlag{Name: "authority", Usage: "the request's :authority (default: the only domain when there is one virtual host)"},
		&cli.StringFlag{Name: "method", Usage: "the request's :method", Value: "GET"},
		&cli.StringSliceFlag{Name: "header", Usage: "request header NAME=VALUE (repeatable)"},
		&cli.StringSliceFlag{Name: "cookie", Usage: "request cookie NAME=VALUE (repeatable)"},
		&cli.StringFlag{Name: "source-ip", Usage: "the request's downstream IP address"},
		&cli.StringFlag{Name: "random-value", Usage: "the router's random number N, as router_check_tool's random_value (picks one weighted cluster)"},
		&cli.BoolFlag{Name: "ssl", Usage: "the downstream connection is TLS with a validated client certificate"},
		&cli.BoolFlag{Name: "internal", Usage: "the request is internal (x-envoy-internal: true)"},
		&cli.StringFlag{Name: "route-config", Usage: "the route configuration NAME to use when several are loaded"},
		&cli.StringFlag{Name: "listener", Usage: "the listener NAME whose HTTP connection manager's routes apply"},
	}
}

// RouteRequest reads the request flags; a malformed value is a usage
// error (exit 2).
func RouteRequest(cmd *cli.Command) (route.Request, route.Options, error) {
	req := route.Request{
		Authority: cmd.String("authority"),
		Path:      cmd.String("path"),
		Method:    cmd.String("method"),
		SourceIP:  cmd.String("source-ip"),
		SSL:       cmd.Bool("ssl"),
		Internal:  cmd.Bool("internal"),
	}
	opt := route.Options{RouteConfig: cmd.String("route-config"), Listener: cmd.String("listener")}
	if req.Path == "" {
		return req, opt, UsageErrorf("route: --path PATH is required (the request's :path, e.g. --path /api/cart)")
	}
	for _, flag := range []string{"header", "cookie"} {
		for _, s := range cmd.StringSlice(flag) {
			k, v, ok := strings.Cut(s, "=")
			if !ok || k == "" {
				return req, opt, UsageErrorf("--%s %q: expected NAME=VALUE", flag, s)
			}
			if flag == "header" {
				req.Headers = append(req.Headers, [2]string{k, v})
			} else {
				req.Cookies = append(req.Cookies, [2]string{k, v})
			}
		}
	}
	if s := cmd.String("random-value"); s != "" {
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return req, opt, UsageErrorf("--random-value %q: expected an unsigned 64-bit integer", s)
		}
		req.RandomValue = &n
	}
	return req, opt, nil
}

// RouteFromExpect is a TESTS file's request as the route engine's.
// router_check_tool always has a random value (0 when not given).
func RouteFromExpect(r expect.Request) route.Request {
	rv := r.RandomValue
	out := route.Request{Authority: r.Authority, Path: r.Path, Method: r.Method, RandomValue: &rv, SSL: r.SSL, Internal: r.Internal}
	for _, h := range r.Headers {
		out.Headers = append(out.Headers, [2]string{h.Name, h.Value})
	}
	return out
}

// RouteResult is the route report as the TESTS checker reads it.
func RouteResult(r *route.Report) expect.RouteResult {
	var out expect.RouteResult
	if r.VirtualHost != nil {
		out.VirtualHost = *r.VirtualHost
	}
	if r.Route != nil {
		out.Route, out.Found = r.Route.Name, true
	}
	out.Cluster = r.Cluster
	if r.Hash != nil {
		out.Host = r.Hash.Host
	}
	if r.Redirect != nil {
		out.PathRedirect = r.Redirect.Location
	}
	for _, h := range r.Hosts {
		out.Hosts = append(out.Hosts, expect.RouteHost{Cluster: h.Cluster, Address: h.Address, Share: h.Share})
	}
	return out
}

// RouteError maps route.Build's errors to exit codes: a *route.UsageError
// is 2, anything else an input error (3; it already names FILE:LINE:COL).
func RouteError(err error) error {
	var ue *route.UsageError
	if errors.As(err, &ue) {
		return UsageErrorf("%s", ue.Msg)
	}
	return InputError(err)
}

// RouteNames are the names a route flag of kind ("route-config",
// "listener", "authority") may take in files, for completion. Only named
// files are read (never stdin); a file that does not load offers nothing.
func RouteNames(kind string, files []string) []string {
	var inputs []config.Input
	for _, f := range files {
		if f != "-" {
			inputs = append(inputs, config.Input{Path: f})
		}
	}
	if len(inputs) == 0 {
		return nil
	}
	cfg, err := config.Load(inputs, "")
	if cfg == nil || err != nil {
		return nil
	}
	c := route.ChoicesOf(cfg)
	switch kind {
	case "route-config":
		return c.RouteConfigs
	case "listener":
		return c.Listeners
	case "authority":
		return c.Domains
	}
	return nil
}
