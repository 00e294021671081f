package route

import (
	"sort"
	"strings"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
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

// hcms finds the listener's HTTP connection managers by type at any
// depth of its filter chains (a network filter may wrap another's typed
// config, e.g. a matcher or composite extension), then the api_listener.
func hcms(cfg *config.Config, li *listenerv3.Listener) []*hcmv3.HttpConnectionManager {
	var out []*hcmv3.HttpConnectionManager
	chains := append([]*listenerv3.FilterChain{}, li.GetFilterChains()...)
	if li.GetDefaultFilterChain() != nil {
		chains = append(chains, li.GetDefaultFilterChain())
	}
	for _, fc := range chains {
		out = findHCMs(cfg, fc.ProtoReflect(), 0, out)
	}
	if h, ok := cfg.Sources.Unpacked(li.GetApiListener().GetApiListener()).(*hcmv3.HttpConnectionManager); ok {
		out = append(out, h)
	}
	return out
}

// maxHCMDepth bounds the walk; the loader already bounds nesting, this
// only keeps a hostile typed config from costing more.
const maxHCMDepth = 64

// findHCMs walks m's fields in order, unpacking every typed config.
func findHCMs(cfg *config.Config, m protoreflect.Message, depth int, out []*hcmv3.HttpConnectionManager) []*hcmv3.HttpConnectionManager {
	if depth > maxHCMDepth || !m.IsValid() {
		return out
	}
	if a, ok := m.Interface().(*anypb.Any); ok {
		switch u := cfg.Sources.Unpacked(a).(type) {
		case nil:
		case *hcmv3.HttpConnectionManager:
			out = append(out, u)
		default:
			out = findHCMs(cfg, u.ProtoReflect(), depth+1, out)
		}
		return out
	}
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind || !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		switch {
		case fd.IsList():
			for j, l := 0, v.List(); j < l.Len(); j++ {
				out = findHCMs(cfg, l.Get(j).Message(), depth+1, out)
			}
		case fd.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Kind() == protoreflect.MessageKind {
					out = findHCMs(cfg, mv.Message(), depth+1, out)
				}
				return true
			})
		default:
			out = findHCMs(cfg, v.Message(), depth+1, out)
		}
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
			return nil, &UsageError{sprintf("%s %q: no such listener with an HTTP connection manager; %s", option.Listener, opt.Listener, list("listeners", names(all, func(s source) string { return s.listener })))}
		}
	}
	if opt.RouteConfig != "" {
		out = filter(out, func(s source) bool { return s.rc.GetName() == opt.RouteConfig })
		if len(out) == 0 {
			return nil, &UsageError{sprintf("%s %q: no such route configuration; %s", option.RouteConfig, opt.RouteConfig, list("route configurations", names(all, func(s source) string { return s.rc.GetName() })))}
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
