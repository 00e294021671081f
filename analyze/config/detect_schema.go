package config

import (
	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config/parse"
	"github.com/lbctl/lbctl/analyze/option"
)

// kindBootstrapDump is a BootstrapConfigDump without its "@type", as
// `istioctl proxy-config bootstrap -o json` prints it: {bootstrap: {...}}.
const kindBootstrapDump = "bootstrap_dump"

// namedKinds are the resources that have a "name" field, in the order that
// breaks a tie (a document with only a name is read as a Cluster).
var namedKinds = []struct {
	kind string
	desc protoreflect.MessageDescriptor
}{
	{KindCluster, (&clusterv3.Cluster{}).ProtoReflect().Descriptor()},
	{KindRoutes, (&routev3.RouteConfiguration{}).ProtoReflect().Descriptor()},
	{KindListener, (&listenerv3.Listener{}).ProtoReflect().Descriptor()},
}

// schemaKind picks, for a mapping with a "name", the resource whose schema
// knows the most of its keys (proto or JSON spelling, or a v2 field lbctl
// translates). When no schema knows any key but the name, the mapping is
// no Envoy resource at all ("").
func schemaKind(n node) string {
	best, bestKnown := "", 0
	for _, c := range namedKinds {
		known := 0
		for i := 0; i+1 < n.Len(); i += 2 {
			if knowsField(c.desc, n.Child(i).Value()) {
				known++
			}
		}
		if known > bestKnown {
			best, bestKnown = c.kind, known
		}
	}
	if bestKnown <= 1 && n.Len() > 2 && !misspeltCluster(n) {
		return "" // only "name" is known: e.g. a list of Kubernetes clusters
	}
	if best == "" {
		return KindCluster
	}
	return best
}

// misspeltCluster reports a key close to a Cluster field: a cluster with a
// typo is reported as such (LB0003 with a suggestion), not as no resource.
func misspeltCluster(n node) bool {
	for i := 0; i+1 < n.Len(); i += 2 {
		if k := n.Child(i).Value(); !knowsField(namedKinds[0].desc, k) && suggestField(k, namedKinds[0].desc) != "" {
			return true
		}
	}
	return false
}

func knowsField(desc protoreflect.MessageDescriptor, key string) bool {
	fields := desc.Fields()
	if fields.ByName(protoreflect.Name(key)) != nil || fields.ByJSONName(key) != nil {
		return true
	}
	return legacyFields[desc.FullName()][key] != nil
}

// isBootstrapDump reports {bootstrap: {...}} with at most last_updated
// beside it: the fields of envoy.admin.v3.BootstrapConfigDump.
func isBootstrapDump(n node) bool {
	b, _ := parse.MapGet(n, "bootstrap")
	if !b.OK() || b.Kind() != mappingNode {
		return false
	}
	for i := 0; i+1 < n.Len(); i += 2 {
		switch n.Child(i).Value() {
		case "bootstrap", "last_updated", "lastUpdated":
		default:
			return false
		}
	}
	return true
}

// readBootstrapDump reads a bare BootstrapConfigDump as the one section of an
// admin config_dump, so that it is treated as written by Envoy.
func readBootstrapDump(l *loader, file string, n node) {
	bd := &adminv3.BootstrapConfigDump{}
	l.decode(file, n, bd, true)
	a := &anypb.Any{TypeUrl: "type.googleapis.com/envoy.admin.v3.BootstrapConfigDump"}
	l.cfg.Sources.unpacked[a] = bd
	l.section(file, a)
}

// egctlProxyDumps returns the config dumps of `egctl config envoy-proxy
// <type> -o yaml` output: {<namespace>: {<pod>: <config dump or dump
// section>}}, or nil for another shape.
func egctlProxyDumps(n node) []node {
	if n.Kind() != mappingNode || n.Len() == 0 {
		return nil
	}
	var out []node
	for i := 1; i < n.Len(); i += 2 {
		ns := parse.Resolve(n.Child(i))
		if !ns.OK() || ns.Kind() != mappingNode || ns.Len() == 0 {
			return nil
		}
		for j := 1; j < ns.Len(); j += 2 {
			d := parse.Resolve(ns.Child(j))
			if !isAdminDump(d) {
				return nil
			}
			out = append(out, d)
		}
	}
	return out
}

// isAdminDump reports a config dump ("configs") or one typed admin dump
// section.
func isAdminDump(n node) bool {
	if !n.OK() || n.Kind() != mappingNode {
		return false
	}
	if c, _ := parse.MapGet(n, "configs"); c.OK() && c.Kind() == sequenceNode {
		return true
	}
	t, _ := parse.MapGet(n, "@type")
	const admin = "type.googleapis.com/envoy.admin."
	return t.OK() && len(t.Value()) > len(admin) && t.Value()[:len(admin)] == admin
}

var notResourcesMsg = "not an Envoy resource lbctl reads: expected a Cluster, a list of clusters, a Bootstrap, a ClusterLoadAssignment, a RouteConfiguration, a Listener, a DiscoveryResponse, an admin config_dump or an admin /clusters dump (use " + option.Kind.String() + " to say which)"

// noResources reports a non-empty list none of whose items is an Envoy
// resource: one error for the list, not one per item.
func noResources(n node) bool {
	for ci := range n.Len() {
		item := n.Child(ci)
		if item = parse.Resolve(item); item.Kind() != mappingNode || item.Len() == 0 || detectKind(item) != "" {
			return false
		}
	}
	return n.Len() > 0
}

const egctlWithoutXDSMsg = "egctl x translate output without an \"xds\" section (Gateway API resources or Envoy Gateway IR only) holds no Envoy config; translate with --to xds"

// egctlWithoutXDS reports `egctl x translate` output made with --to
// gateway-api or --to ir: the keys egctl writes, and no "xds".
func egctlWithoutXDS(n node) bool {
	if n.Kind() != mappingNode {
		return false
	}
	if x, _ := parse.MapGet(n, "xds"); x.OK() {
		return false
	}
	v, _ := parse.MapGet(n, "gatewayClass", "xdsIR", "infraIR", "envoyProxyForGatewayClass")
	return v.OK()
}
