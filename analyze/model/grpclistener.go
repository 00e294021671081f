package model

import (
	"fmt"

	udpatypev1 "github.com/cncf/xds/go/udpa/type/v1"
	xdstypev3 "github.com/cncf/xds/go/xds/type/v3"
	// The client-side filters gRPC implements, so their configs load.
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/fault/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/gcp_authn/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/stateful_session/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// grpcFilter is an HTTP filter a gRPC client has registered.
type grpcFilter struct{ client, terminal bool }

// grpcFilters are the HTTP filter config types each implementation
// registers: grpc-go's xds/internal/httpfilter packages (router, fault;
// rbac is server-side only; ext_authz and ext_proc only behind
// experimental environment variables), C-core's XdsHttpFilterRegistry
// (router, fault, rbac, stateful_session, gcp_authn).
var grpcFilters = map[grpc.Impl]map[string]grpcFilter{
	grpc.GoImpl: {
		"envoy.extensions.filters.http.router.v3.Router":     {client: true, terminal: true},
		"envoy.extensions.filters.http.fault.v3.HTTPFault":   {client: true},
		"envoy.extensions.filters.http.rbac.v3.RBAC":         {},
		"envoy.extensions.filters.http.rbac.v3.RBACPerRoute": {},
	},
	grpc.CoreImpl: {
		"envoy.extensions.filters.http.router.v3.Router":                            {client: true, terminal: true},
		"envoy.extensions.filters.http.fault.v3.HTTPFault":                          {client: true},
		"envoy.extensions.filters.http.rbac.v3.RBAC":                                {},
		"envoy.extensions.filters.http.rbac.v3.RBACPerRoute":                        {},
		"envoy.extensions.filters.http.stateful_session.v3.StatefulSession":         {client: true},
		"envoy.extensions.filters.http.gcp_authn.v3.GcpAuthnFilterConfig":           {client: true},
		"envoy.extensions.filters.http.stateful_session.v3.StatefulSessionPerRoute": {client: true},
	},
}

// ListenerNACK is a client-side Listener (api_listener) that a gRPC
// implementation NACKs because of its HTTP filters.
type ListenerNACK struct {
	Listener string
	// At is the offending filter (the connection manager when the list as
	// a whole is wrong).
	At     proto.Message
	Reason string
	// Clusters are the clusters its route configuration routes to.
	Clusters []string
}

// GRPCListenerNACKs checks every api_listener's http_filters as impl does
// (grpc-go: processHTTPFilters in xdsresource/unmarshal_lds.go; C-core:
// XdsListenerResourceType's HttpConnectionManager parsing): a filter
// without a name or with a repeated name, a non-optional filter whose
// config type is not registered or not supported on clients, no filter
// left, or a terminal filter that is not last (only router is terminal).
func GRPCListenerNACKs(c *config.Config, impl grpc.Impl) []ListenerNACK {
	var out []ListenerNACK
	for _, li := range c.Listeners {
		hcm, ok := c.Sources.Unpacked(li.GetApiListener().GetApiListener()).(*hcmv3.HttpConnectionManager)
		if !ok {
			continue
		}
		at, reason := httpFiltersNACK(c, hcm, impl)
		if reason == "" {
			continue
		}
		out = append(out, ListenerNACK{Listener: li.GetName(), At: at, Reason: reason, Clusters: listenerClusters(c, hcm)})
	}
	return out
}

func httpFiltersNACK(c *config.Config, hcm *hcmv3.HttpConnectionManager, impl grpc.Impl) (proto.Message, string) {
	seen := map[string]bool{}
	var kept []*hcmv3.HttpFilter
	for _, f := range hcm.GetHttpFilters() {
		name := f.GetName()
		if name == "" {
			return f, "an HTTP filter has no name"
		}
		if seen[name] {
			return f, fmt.Sprintf("duplicate HTTP filter name %q", name)
		}
		seen[name] = true
		typ := filterType(c, f.GetTypedConfig())
		reg, known := grpcFilters[impl][typ]
		switch {
		case f.GetIsOptional() && (!known || !reg.client):
			continue // optional filters gRPC cannot run are skipped
		case !known:
			return f, fmt.Sprintf("HTTP filter %q: no filter implementation found for %q (and is_optional is not set)", name, typ)
		case !reg.client:
			return f, fmt.Sprintf("HTTP filter %q (%s) is not supported client-side (and is_optional is not set)", name, typ)
		}
		kept = append(kept, f)
	}
	if len(kept) == 0 {
		return hcm, "the HTTP filter list is empty (it needs the router filter last)"
	}
	for i, f := range kept {
		terminal := grpcFilters[impl][filterType(c, f.GetTypedConfig())].terminal
		if terminal && i < len(kept)-1 {
			return f, fmt.Sprintf("HTTP filter %q is a terminal filter but it is not last in the filter chain", f.GetName())
		}
		if !terminal && i == len(kept)-1 {
			return f, fmt.Sprintf("HTTP filter %q is not a terminal filter, and the last filter must be (router)", f.GetName())
		}
	}
	return nil, ""
}

// filterType is a filter config's type name, looking inside a TypedStruct
// as both implementations do.
func filterType(c *config.Config, a *anypb.Any) string {
	switch m := c.Sources.Unpacked(a).(type) {
	case *xdstypev3.TypedStruct:
		return config.TypeName(m.GetTypeUrl())
	case *udpatypev1.TypedStruct:
		return config.TypeName(m.GetTypeUrl())
	}
	return config.TypeName(a.GetTypeUrl())
}

// listenerClusters lists the clusters the connection manager's inline
// route_config, or the loaded RouteConfiguration its RDS names, routes to.
func listenerClusters(c *config.Config, hcm *hcmv3.HttpConnectionManager) []string {
	rc := hcm.GetRouteConfig()
	if rc == nil {
		name := hcm.GetRds().GetRouteConfigName()
		for _, r := range c.Routes {
			if name != "" && r.GetName() == name {
				rc = r
				break
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, vh := range rc.GetVirtualHosts() {
		for _, r := range vh.GetRoutes() {
			add(r.GetRoute().GetCluster())
			for _, wc := range r.GetRoute().GetWeightedClusters().GetClusters() {
				add(wc.GetName())
			}
		}
	}
	return out
}

// RoutedOnlyByNACKed maps each cluster that every routing api_listener
// sends to is NACKed by impl (and there is at least one) to those
// listeners: a client that uses them sends that cluster nothing. Built once
// per report (listeners × their routes, not per cluster).
func RoutedOnlyByNACKed(c *config.Config, impl grpc.Impl) map[string][]ListenerNACK {
	nacked := map[string]ListenerNACK{}
	for _, n := range GRPCListenerNACKs(c, impl) {
		nacked[n.Listener] = n
	}
	out := map[string][]ListenerNACK{}
	accepted := map[string]bool{}
	for _, li := range c.Listeners {
		hcm, ok := c.Sources.Unpacked(li.GetApiListener().GetApiListener()).(*hcmv3.HttpConnectionManager)
		if !ok {
			continue
		}
		n, bad := nacked[li.GetName()]
		for _, cluster := range listenerClusters(c, hcm) {
			if bad {
				out[cluster] = append(out[cluster], n)
			} else {
				accepted[cluster] = true
			}
		}
	}
	for cluster := range accepted {
		delete(out, cluster)
	}
	return out
}
