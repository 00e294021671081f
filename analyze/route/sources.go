package route

import (
	"sort"
	"strings"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"

	"github.com/lbctl/lbctl/analyze/config"
)

// source is one route configuration a request may be routed by, with the
// HTTP connection manager that uses it (nil for a standalone one no
// loaded listener names).
type source struct {
	rc       *routev3.RouteConfiguration
	listener string
	hcm      *hcmv3.HttpConnectionManager
	port     uint32
	hasPort  bool
}

func (s source) label() string {
	name := s.rc.GetName()
	if name == "" {
		name = "(unnamed)"
	}
	if s.listener != "" {
		return sprintf("%s (listener %s)", name, s.listener)
	}
	return name
}

// sources lists every route configuration with the listener and HCM that
// use it: listeners' HCMs (any filter chain, the default one, the
// api_listener) with an inline route_config or an RDS name, then the
// loaded route configurations no listener uses.
func sources(cfg *config.Config) []source {
	var out []source
	used := map[*routev3.RouteConfiguration]bool{}
	byName := map[string]*routev3.RouteConfiguration{}
	for _, rc := range cfg.Routes {
		if _, ok := byName[rc.GetName()]; !ok {
			byName[rc.GetName()] = rc
		}
	}
	for _, li := range cfg.Listeners {
		port := li.GetAddress().GetSocketAddress().GetPortValue()
		hasPort := li.GetAddress().GetSocketAddress() != nil
		for _, hcm := range hcms(cfg, li) {
			rc := hcm.GetRouteConfig()
			if rc == nil {
				if name := hcm.GetRds().GetRouteConfigName(); name != "" {
					rc = byName[name]
				}
			} else if named, ok := byName[rc.GetName()]; ok && !containsRC(cfg.Routes, rc) {
				// A dump keeps one copy of a route configuration per name.
				rc = named
			}
			if rc == nil {
				continue
			}
			used[rc] = true
			out = append(out, source{rc: rc, listener: li.GetName(), hcm: hcm, port: port, hasPort: hasPort})
		}
	}
	for _, rc := range cfg.Routes {
		if !used[rc] {
			out = append(out, source{rc: rc})
		}
	}
	return out
}

func containsRC(list []*routev3.RouteConfiguration, rc *routev3.RouteConfiguration) bool {
	for _, r := range list {
		if r == rc {
			return true
		}
	}
	return false
}

// hcms finds the listener's HTTP connection managers by type.
func hcms(cfg *config.Config, li *listenerv3.Listener) []*hcmv3.HttpConnectionManager {
	var out []*hcmv3.HttpConnectionManager
	chains := append([]*listenerv3.FilterChain{}, li.GetFilterChains()...)
	if li.GetDefaultFilterChain() != nil {
		chains = append(chains, li.GetDefaultFilterChain())
	}
	for _, fc := range chains {
		for _, f := range fc.GetFilters() {
			if h, ok := cfg.Sources.Unpacked(f.GetTypedConfig()).(*hcmv3.HttpConnectionManager); ok {
				out = append(out, h)
			}
		}
	}
	if h, ok := cfg.Sources.Unpacked(li.GetApiListener().GetApiListener()).(*hcmv3.HttpConnectionManager); ok {
		out = append(out, h)
	}
	return out
}

// pick narrows the sources by the options; a name that matches nothing
// is a usage error listing the names there are.
func pick(all []source, opt Options) ([]source, error) {
	out := all
	if opt.Listener != "" {
		out = filter(out, func(s source) bool { return s.listener == opt.Listener })
		if len(out) == 0 {
			return nil, &UsageError{sprintf("--listener %q: no such listener with an HTTP connection manager; %s", opt.Listener, list("listeners", names(all, func(s source) string { return s.listener })))}
		}
	}
	if opt.RouteConfig != "" {
		out = filter(out, func(s source) bool { return s.rc.GetName() == opt.RouteConfig })
		if len(out) == 0 {
			return nil, &UsageError{sprintf("--route-config %q: no such route configuration; %s", opt.RouteConfig, list("route configurations", names(all, func(s source) string { return s.rc.GetName() })))}
		}
	}
	if len(out) == 0 {
		return nil, &UsageError{"no route configuration is loaded (give a RouteConfiguration, or a listener with an HTTP connection manager)"}
	}
	return out, nil
}

func filter(in []source, keep func(source) bool) []source {
	var out []source
	for _, s := range in {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

func names(in []source, f func(source) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if n := f(s); n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func list(what string, ns []string) string {
	if len(ns) == 0 {
		return "none is loaded"
	}
	return "the " + what + " are: " + strings.Join(ns, ", ")
}
