package config

import (
	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
)

// KindClientStatus is a Client Status Discovery Service response: the xDS
// resources a client (Envoy or proxyless gRPC) holds, as a ClientStatus
// call or grpcdebug prints it.
const KindClientStatus = "client_status"

// isClientStatus reports a ClientStatusResponse: "config" listing client
// configs with a node, generic_xds_configs or per-xDS configs.
func isClientStatus(n *yaml.Node) bool {
	list, _ := mapGet(n, "config")
	if list == nil || resolve(list).Kind != yaml.SequenceNode {
		return false
	}
	for _, c := range resolve(list).Content {
		if v, _ := mapGet(c, "generic_xds_configs", "genericXdsConfigs", "xds_config", "xdsConfig", "node"); v != nil {
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
func readClientStatus(l *loader, file string, n *yaml.Node) {
	list, _ := mapGet(n, "config")
	if list == nil { // --kind client_status on a document without config
		l.problem(Problem{Pos: nodePos(file, n), Severity: SevWarning, Code: CodeUnknownKind, Msg: "ClientStatusResponse has no config list"})
		return
	}
	for _, c := range list.Content {
		for _, x := range seq(c, "generic_xds_configs", "genericXdsConfigs") {
			if p := nacked(file, x); p != nil {
				l.problem(*p)
			}
			if v, _ := mapGet(x, "xds_config", "xdsConfig"); v != nil { // absent: DOES_NOT_EXIST or REQUESTED
				a := &anypb.Any{}
				l.decode(file, v, a, true)
				l.typed(file, a)
			}
		}
		for _, x := range seq(c, "xds_config", "xdsConfig") {
			for _, d := range perXDSDumps {
				v, _ := mapGet(x, d.key, d.camel)
				if v == nil {
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

// seq is the list under one of names in n, or nil.
func seq(n *yaml.Node, names ...string) []*yaml.Node {
	if v, _ := mapGet(n, names...); v != nil && resolve(v).Kind == yaml.SequenceNode {
		return resolve(v).Content
	}
	return nil
}

// nacked is a warning for a generic xDS config the client NACKed.
func nacked(file string, x *yaml.Node) *Problem {
	st, _ := mapGet(x, "client_status", "clientStatus")
	if st == nil || resolve(st).Value != "NACKED" {
		return nil
	}
	what := "a resource"
	if name, _ := mapGet(x, "name"); name != nil {
		what = "resource " + resolve(name).Value
	}
	return &Problem{Pos: nodePos(file, st), Severity: SevWarning, Code: CodeInvalidValue,
		Msg: "the client NACKed " + what + ": it keeps running its previous version, which is what is shown"}
}
