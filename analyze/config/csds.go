package config

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// KindClientStatus is a Client Status Discovery Service response: the xDS
// resources a client (Envoy or proxyless gRPC) holds, as a ClientStatus
// call or grpcdebug prints it.
const KindClientStatus = "client_status"

// isClientStatus reports a ClientStatusResponse: "config" listing client
// configs with a node, generic_xds_configs or per-xDS configs.
func isClientStatus(n node) bool {
	list, _ := parse.MapGet(n, "config")
	if !list.OK() || parse.Resolve(list).Kind() != sequenceNode {
		return false
	}
	for ci := range parse.Resolve(list).Len() {
		c := parse.Resolve(list).Child(ci)
		if v, _ := parse.MapGet(c, "generic_xds_configs", "genericXdsConfigs", "xds_config", "xdsConfig", "node"); v.OK() {
			return true
		}
	}
	return false
}

// readClientStatus reads every client config of a ClientStatusResponse
// (envoy/service/status/v3/csds.proto): generic_xds_configs entries
// ({type_url, name, xds_config: Any, client_status}) and the deprecated
// per-xDS config dumps. A resource the client NACKed is reported, since
// the client keeps running its previous version.
func readClientStatus(l *loader, file string, n node) {
	list, _ := parse.MapGet(n, "config")
	if !list.OK() { // --kind client_status on a document without config
		l.problem(Problem{Pos: nodePos(file, n), Severity: SevWarning, Code: CodeUnknownKind, Msg: "ClientStatusResponse has no config list"})
		return
	}
	for ci := range list.Len() {
		c := list.Child(ci)
		xs := seq(c, "generic_xds_configs", "genericXdsConfigs")
		for xi := range xs.Len() {
			x := xs.Child(xi)
			if p := nacked(file, x); p != nil {
				l.problem(*p)
			}
			if v, _ := parse.MapGet(x, "xds_config", "xdsConfig"); v.OK() { // absent: DOES_NOT_EXIST or REQUESTED
				a := &anypb.Any{}
				l.decode(file, v, a, true)
				l.typed(file, a)
			}
		}
		xs = seq(c, "xds_config", "xdsConfig")
		for xi := range xs.Len() {
			x := xs.Child(xi)
			for _, d := range perXDSDumps {
				v, _ := parse.MapGet(x, d.key, d.camel)
				if !v.OK() {
					continue
				}
				m := d.new()
				l.decode(file, v, m, true)
				if a, err := anypb.New(m); err == nil {
					l.cfg.Sources.unpacked[a] = m
					l.typed(file, a)
				}
			}
		}
	}
}

// perXDSDumps are PerXdsConfig's fields, each a config dump of one xDS.
var perXDSDumps = []struct {
	key, camel string
	new        func() proto.Message
}{
	{"listener_config", "listenerConfig", func() proto.Message { return &adminv3.ListenersConfigDump{} }},
	{"cluster_config", "clusterConfig", func() proto.Message { return &adminv3.ClustersConfigDump{} }},
	{"route_config", "routeConfig", func() proto.Message { return &adminv3.RoutesConfigDump{} }},
	{"endpoint_config", "endpointConfig", func() proto.Message { return &adminv3.EndpointsConfigDump{} }},
}

// seq is the list under one of names in n, or the zero node (no items).
func seq(n node, names ...string) node {
	if v, _ := parse.MapGet(n, names...); v.OK() && parse.Resolve(v).Kind() == sequenceNode {
		return parse.Resolve(v)
	}
	return node{}
}

// nacked is a warning for a generic xDS config the client NACKed.
func nacked(file string, x node) *Problem {
	st, _ := parse.MapGet(x, "client_status", "clientStatus")
	if !st.OK() || parse.Resolve(st).Value() != "NACKED" {
		return nil
	}
	what := "a resource"
	if name, _ := parse.MapGet(x, "name"); name.OK() {
		what = "resource " + parse.Resolve(name).Value()
	}
	return &Problem{Pos: nodePos(file, st), Severity: SevWarning, Code: CodeInvalidValue,
		Msg: "the client NACKed " + what + ": it keeps running its previous version, which is what is shown"}
}
