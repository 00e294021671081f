package config

import (
	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// legacyFields reads v2-era fields that v3 removed but that old configs
// still carry, each with a warning that names the v3 replacement. Anything
// not listed here is an unknown field.
var legacyFields map[protoreflect.FullName]map[string]func(d *decoder, k, v node, m protoreflect.Message)

func init() {
	filterConfig := func(d *decoder, k, v node, m protoreflect.Message) { d.v2FilterConfig(k, v, m) }
	ignored := func(replacement string) func(d *decoder, k, v node, m protoreflect.Message) {
		return func(d *decoder, k, v node, m protoreflect.Message) {
			d.problem(k, SevWarning, CodeLegacy, Quote(k.Value())+" is v2 syntax, removed in v3 (use "+replacement+"); lbctl does not read it")
		}
	}
	legacyFields = map[protoreflect.FullName]map[string]func(*decoder, node, node, protoreflect.Message){
		"envoy.config.cluster.v3.Cluster": {
			"hosts":       (*decoder).v2Hosts,
			"tls_context": ignored("transport_socket"), "tlsContext": ignored("transport_socket"),
		},
		"envoy.config.listener.v3.Filter":                                        {"config": filterConfig},
		"envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter": {"config": filterConfig},
		"envoy.config.listener.v3.ListenerFilter":                                {"config": filterConfig},
		"envoy.config.accesslog.v3.AccessLog":                                    {"config": ignored("typed_config")},
		"envoy.config.core.v3.TransportSocket":                                   {"config": ignored("typed_config")},
		"envoy.config.trace.v3.Tracing.Http":                                     {"config": ignored("typed_config")},
		"envoy.config.listener.v3.FilterChain":                                   {"tls_context": ignored("transport_socket"), "tlsContext": ignored("transport_socket")},
		"envoy.config.core.v3.HealthCheck.HttpHealthCheck":                       {"service_name": ignored("service_name_matcher")},
		"envoy.admin.v3.ListenersConfigDump": {
			"dynamic_active_listeners": v2Listeners(active), "dynamicActiveListeners": v2Listeners(active),
			"dynamic_warming_listeners": v2Listeners(warming), "dynamicWarmingListeners": v2Listeners(warming),
			"dynamic_draining_listeners": v2Listeners(draining), "dynamicDrainingListeners": v2Listeners(draining),
		},
	}
}

type listenerState int

const (
	active listenerState = iota
	warming
	draining
)

// v2Listeners reads a v2alpha ListenersConfigDump list
// (dynamic_active_listeners: [{version_info, listener, last_updated}]) as
// the v3 dynamic_listeners entry in that state. An old Envoy wrote it, so
// it is read fully and without a warning.
func v2Listeners(state listenerState) func(d *decoder, k, v node, m protoreflect.Message) {
	return func(d *decoder, k, v node, m protoreflect.Message) {
		if v.Kind() != sequenceNode {
			d.errorf(v, CodeType, "expected a list for "+Quote(k.Value())+", found "+kindName(v))
			return
		}
		dump := m.Interface().(*adminv3.ListenersConfigDump)
		for ci := range v.Len() {
			item := v.Child(ci)
			st := &adminv3.ListenersConfigDump_DynamicListenerState{}
			d.message(parse.Resolve(item), st.ProtoReflect())
			dl := &adminv3.ListenersConfigDump_DynamicListener{}
			d.src.record(dl, item)
			switch state {
			case active:
				dl.ActiveState = st
			case warming:
				dl.WarmingState = st
			default:
				dl.DrainingState = st
			}
			dump.DynamicListeners = append(dump.DynamicListeners, dl)
		}
	}
}

// v2Hosts reads Cluster.hosts (v2: a list of addresses) into load_assignment,
// the v3 form Envoy converted it to.
func (d *decoder) v2Hosts(k, v node, m protoreflect.Message) {
	d.problem(k, SevWarning, CodeLegacy, "\"hosts\" is v2 syntax, removed in v3; read as load_assignment endpoints")
	if v.Kind() != sequenceNode {
		d.errorf(v, CodeType, "expected a list for \"hosts\", found "+kindName(v))
		return
	}
	c := m.Interface().(*clusterv3.Cluster)
	if c.LoadAssignment == nil {
		c.LoadAssignment = &endpointv3.ClusterLoadAssignment{ClusterName: c.GetName()}
		d.src.record(c.LoadAssignment, k)
	}
	group := &endpointv3.LocalityLbEndpoints{}
	d.src.record(group, v)
	for ci := range v.Len() {
		item := v.Child(ci)
		addr := &corev3.Address{}
		d.message(parse.Resolve(item), addr.ProtoReflect())
		ep := &endpointv3.LbEndpoint{HostIdentifier: &endpointv3.LbEndpoint_Endpoint{Endpoint: &endpointv3.Endpoint{Address: addr}}}
		d.src.record(ep, item)
		group.LbEndpoints = append(group.LbEndpoints, ep)
	}
	c.LoadAssignment.Endpoints = append(c.LoadAssignment.Endpoints, group)
}

// v2FilterTypes are the v2 filter names whose `config:` lbctl reads as the
// v3 typed config, so that routes inlined in old listeners are still found.
var v2FilterTypes = map[string]string{
	"envoy.http_connection_manager":                 "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
	"envoy.filters.network.http_connection_manager": "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
	"envoy.router":              "envoy.extensions.filters.http.router.v3.Router",
	"envoy.filters.http.router": "envoy.extensions.filters.http.router.v3.Router",
}

func (d *decoder) v2FilterConfig(k, v node, m protoreflect.Message) {
	nameField := m.Descriptor().Fields().ByName("name")
	name := m.Get(nameField).String()
	typeName, ok := v2FilterTypes[name]
	if !ok {
		d.problem(k, SevWarning, CodeLegacy, "\"config\" is v2 syntax, removed in v3 (use typed_config); lbctl does not read the config of "+Quote(name))
		return
	}
	mt, _ := resolveType(typeName)
	if mt == nil {
		return
	}
	d.problem(k, SevWarning, CodeLegacy, "\"config\" is v2 syntax, removed in v3 (use typed_config); read as "+typeName)
	payload := mt.New()
	sub := *d
	sub.probs = nil
	sub.lenient = true
	sub.message(v, payload)
	d.probs = append(d.probs, sub.probs...)
	b, err := proto.Marshal(payload.Interface())
	if err != nil {
		return
	}
	a := &anypb.Any{TypeUrl: "type.googleapis.com/" + typeName, Value: b}
	d.src.unpacked[a] = payload.Interface()
	if fd := m.Descriptor().Fields().ByName("typed_config"); fd != nil {
		m.Set(fd, protoreflect.ValueOfMessage(a.ProtoReflect()))
	}
}

// v2Untyped gives the type of Any fields that v2alpha admin dumps wrote as
// plain messages, without "@type".
var v2Untyped = map[protoreflect.FullName]string{
	"envoy.admin.v3.ClustersConfigDump.StaticCluster.cluster":                  "envoy.config.cluster.v3.Cluster",
	"envoy.admin.v3.ClustersConfigDump.DynamicCluster.cluster":                 "envoy.config.cluster.v3.Cluster",
	"envoy.admin.v3.ListenersConfigDump.StaticListener.listener":               "envoy.config.listener.v3.Listener",
	"envoy.admin.v3.ListenersConfigDump.DynamicListenerState.listener":         "envoy.config.listener.v3.Listener",
	"envoy.admin.v3.RoutesConfigDump.StaticRouteConfig.route_config":           "envoy.config.route.v3.RouteConfiguration",
	"envoy.admin.v3.RoutesConfigDump.DynamicRouteConfig.route_config":          "envoy.config.route.v3.RouteConfiguration",
	"envoy.admin.v3.EndpointsConfigDump.StaticEndpointConfig.endpoint_config":  "envoy.config.endpoint.v3.ClusterLoadAssignment",
	"envoy.admin.v3.EndpointsConfigDump.DynamicEndpointConfig.endpoint_config": "envoy.config.endpoint.v3.ClusterLoadAssignment",
	"envoy.admin.v3.BootstrapConfigDump.bootstrap":                             "",
}

// v2EnumValues maps enum values v3 removed to what Envoy read them as.
var v2EnumValues = map[string]string{
	"ORIGINAL_DST_LB": "CLUSTER_PROVIDED", // lb_policy of ORIGINAL_DST clusters
}

// v2Types maps the v2 resource types still found in old configs and dumps to
// the v3 types that replaced them.
var v2Types = map[string]string{
	"envoy.api.v2.Cluster":                "envoy.config.cluster.v3.Cluster",
	"envoy.api.v2.ClusterLoadAssignment":  "envoy.config.endpoint.v3.ClusterLoadAssignment",
	"envoy.api.v2.RouteConfiguration":     "envoy.config.route.v3.RouteConfiguration",
	"envoy.api.v2.Listener":               "envoy.config.listener.v3.Listener",
	"envoy.config.bootstrap.v2.Bootstrap": "envoy.config.bootstrap.v3.Bootstrap",
	"envoy.config.filter.network.http_connection_manager.v2.HttpConnectionManager": "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
	"envoy.config.filter.http.router.v2.Router":                                    "envoy.extensions.filters.http.router.v3.Router",
	"envoy.config.cluster.aggregate.v2alpha.ClusterConfig":                         "envoy.extensions.clusters.aggregate.v3.ClusterConfig",
}
