package config

import (
	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
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
func schemaKind(n *yaml.Node) string {
	best, bestKnown := "", 0
	for _, c := range namedKinds {
		known := 0
		for i := 0; i+1 < len(n.Content); i += 2 {
			if knowsField(c.desc, n.Content[i].Value) {
				known++
			}
		}
		if known > bestKnown {
			best, bestKnown = c.kind, known
		}
	}
	if bestKnown <= 1 && len(n.Content) > 2 && !misspeltCluster(n) {
		return "" // only "name" is known: e.g. a list of Kubernetes clusters
	}
	if best == "" {
		return KindCluster
	}
	return best
}

// misspeltCluster reports a key close to a Cluster field: a cluster with a
// typo is reported as such (LB0003 with a suggestion), not as no resource.
func misspeltCluster(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !knowsField(namedKinds[0].desc, k) && suggestField(k, namedKinds[0].desc) != "" {
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
func isBootstrapDump(n *yaml.Node) bool {
	b, _ := mapGet(n, "bootstrap")
	if b == nil || b.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "bootstrap", "last_updated", "lastUpdated":
		default:
			return false
		}
	}
	return true
}

// readBootstrapDump reads a bare BootstrapConfigDump as the one section of an
// admin config_dump, so that it is treated as written by Envoy.
func readBootstrapDump(l *loader, file string, n *yaml.Node) {
	bd := &adminv3.BootstrapConfigDump{}
	l.decode(file, n, bd, true)
	a := &anypb.Any{TypeUrl: "type.googleapis.com/envoy.admin.v3.BootstrapConfigDump"}
	l.cfg.Sources.unpacked[a] = bd
	l.configDump(file, &adminv3.ConfigDump{Configs: []*anypb.Any{a}})
}

// egctlProxyDumps returns the config dumps of `egctl config envoy-proxy
// <type> -o yaml` output: {<namespace>: {<pod>: <config dump or dump
// section>}}, or nil for another shape.
func egctlProxyDumps(n *yaml.Node) []*yaml.Node {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil
	}
	var out []*yaml.Node
	for i := 1; i < len(n.Content); i += 2 {
		ns := resolve(n.Content[i])
		if ns == nil || ns.Kind != yaml.MappingNode || len(ns.Content) == 0 {
			return nil
		}
		for j := 1; j < len(ns.Content); j += 2 {
			d := resolve(ns.Content[j])
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
func isAdminDump(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	if c, _ := mapGet(n, "configs"); c != nil && c.Kind == yaml.SequenceNode {
		return true
	}
	t, _ := mapGet(n, "@type")
	const admin = "type.googleapis.com/envoy.admin."
	return t != nil && len(t.Value) > len(admin) && t.Value[:len(admin)] == admin
}

const notResourcesMsg = "not an Envoy resource lbctl reads: expected a Cluster, a list of clusters, a Bootstrap, a ClusterLoadAssignment, a RouteConfiguration, a Listener, a DiscoveryResponse, an admin config_dump or an admin /clusters dump (use --kind to say which)"

// noResources reports a non-empty list none of whose items is an Envoy
// resource: one error for the list, not one per item.
func noResources(n *yaml.Node) bool {
	for _, item := range n.Content {
		if item = resolve(item); item.Kind != yaml.MappingNode || len(item.Content) == 0 || detectKind(item) != "" {
			return false
		}
	}
	return len(n.Content) > 0
}

const egctlWithoutXDSMsg = "egctl x translate output without an \"xds\" section (Gateway API resources or Envoy Gateway IR only) holds no Envoy config; translate with --to xds"

// egctlWithoutXDS reports `egctl x translate` output made with --to
// gateway-api or --to ir: the keys egctl writes, and no "xds".
func egctlWithoutXDS(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	if x, _ := mapGet(n, "xds"); x != nil {
		return false
	}
	v, _ := mapGet(n, "gatewayClass", "xdsIR", "infraIR", "envoyProxyForGatewayClass")
	return v != nil
}
