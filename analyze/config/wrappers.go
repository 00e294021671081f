package config

import (
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// Wrappers that control planes and Kubernetes put around xDS resources.
const (
	// kindResourceMap is a mapping keyed by resource kind: kgateway's
	// translator output (Clusters:, Listeners:, Routes:) and Gloo's
	// snapshots (clusters:, endpoints:, listeners:, routes:).
	kindResourceMap = "resource_map"
	// kindKubernetes is a Kubernetes object (apiVersion + kind): a Cilium
	// (Clusterwide)EnvoyConfig, or a List of objects.
	kindKubernetes = "kubernetes"
)

// resourceMapKinds are the keys of a resource-kind map, by lower-case
// spelling, with the kind of each list item.
var resourceMapKinds = map[string]string{
	"clusters":  KindCluster,
	"endpoints": KindEndpoints,
	"listeners": KindListener,
	"routes":    KindRoutes,
}

// resourceMapSkipped are keys of such maps that hold no load-balancing
// config: TLS secrets, and the Gateway API statuses kgateway writes beside
// the resources. They are not read.
var resourceMapSkipped = map[string]bool{"secrets": true, "statuses": true}

// isResourceMap reports a mapping with at least one resource-kind key
// holding a list, and no "name" or "cluster_name" (a cluster has a name, a
// ClusterLoadAssignment with no endpoints an empty "endpoints" list beside
// its cluster_name; a map has neither).
func isResourceMap(n node) bool {
	if n.Kind() != mappingNode {
		return false
	}
	if v, _ := parse.MapGet(n, "name", "cluster_name", "clusterName"); v.OK() {
		return false
	}
	for i := 0; i+1 < n.Len(); i += 2 {
		key, v := strings.ToLower(n.Child(i).Value()), parse.Resolve(n.Child(i+1))
		if _, ok := resourceMapKinds[key]; !ok || v.Kind() != sequenceNode {
			continue
		}
		if key == "endpoints" && v.Len() > 0 && isLocalityGroup(v.Child(0)) {
			continue // a ClusterLoadAssignment's own endpoints (its cluster_name missing)
		}
		return true
	}
	return false
}

// isLocalityGroup reports a LocalityLbEndpoints mapping.
func isLocalityGroup(n node) bool {
	v, _ := parse.MapGet(n, "lb_endpoints", "lbEndpoints", "locality", "priority", "load_balancing_weight", "loadBalancingWeight", "leds_cluster_locality_config", "ledsClusterLocalityConfig")
	return v.OK()
}

// readResourceMap reads every key of a resource-kind map; under a key it
// does not know, Envoy config is searched (find.go), and the keys holding
// none are named in one notice.
func readResourceMap(l *loader, file string, n node) {
	f := &finder{file: file, src: l.cfg.Sources}
	defer f.readInto(l)
	for i := 0; i+1 < n.Len(); i += 2 {
		k, v := n.Child(i), parse.Resolve(n.Child(i+1))
		key := strings.ToLower(k.Value())
		if resourceMapSkipped[key] {
			continue
		}
		kind, ok := resourceMapKinds[key]
		if !ok {
			if !f.keyed(k.Value(), v) && !f.walk(v, 1) {
				f.skip(k, "\""+printable(k.Value())+"\"")
			}
			continue
		}
		if isNull(v) {
			continue
		}
		if v.Kind() != sequenceNode {
			l.problem(Problem{Pos: nodePos(file, v), Severity: SevError, Code: CodeType, Msg: "expected a list under " + Quote(k.Value()) + ", found " + kindName(v)})
			continue
		}
		for ci := range v.Len() {
			item := v.Child(ci)
			item = parse.Resolve(item)
			if t, _ := parse.MapGet(item, "@type"); t.OK() {
				l.document(file, item, "typed")
				continue
			}
			l.document(file, item, kind)
		}
	}
}

// isKubernetes reports a Kubernetes object: apiVersion and kind.
func isKubernetes(n node) bool {
	a, _ := parse.MapGet(n, "apiVersion")
	k, _ := parse.MapGet(n, "kind")
	return a.OK() && k.OK() && a.Kind() == scalarNode && k.Kind() == scalarNode
}

// readKubernetes reads a Cilium(Clusterwide)EnvoyConfig (spec.resources: typed
// xDS resources) or a List of objects (items:, each read on its own).
// Any other Kubernetes kind is one error saying what lbctl reads.
func readKubernetes(l *loader, file string, n node) {
	kindNode, _ := parse.MapGet(n, "kind")
	api, _ := parse.MapGet(n, "apiVersion")
	switch kind := kindNode.Value(); {
	case strings.HasSuffix(kind, "List"):
		items, _ := parse.MapGet(n, "items")
		if !items.OK() || isNull(items) {
			return
		}
		if items.Kind() != sequenceNode {
			l.problem(Problem{Pos: nodePos(file, items), Severity: SevError, Code: CodeType, Msg: "expected a list under \"items\", found " + kindName(items)})
			return
		}
		for ci := range items.Len() {
			item := items.Child(ci)
			l.document(file, item, "")
		}
	case (kind == "CiliumEnvoyConfig" || kind == "CiliumClusterwideEnvoyConfig") && strings.HasPrefix(api.Value(), "cilium.io/"):
		spec, _ := parse.MapGet(n, "spec")
		res, _ := parse.MapGet(spec, "resources")
		if !res.OK() || res.Kind() != sequenceNode {
			l.problem(Problem{Pos: nodePos(file, kindNode), Severity: SevError, Code: CodeUnknownKind, Msg: kind + " has no spec.resources list of xDS resources"})
			return
		}
		for ci := range res.Len() {
			item := res.Child(ci)
			item = parse.Resolve(item)
			if t, _ := parse.MapGet(item, "@type"); !t.OK() {
				l.problem(Problem{Pos: nodePos(file, item), Severity: SevError, Code: CodeUnknownKind, Msg: kind + " spec.resources item has no \"@type\"; expected a typed xDS resource (Cluster, ClusterLoadAssignment, Listener, RouteConfiguration)"})
				continue
			}
			l.document(file, item, "typed")
		}
	default:
		l.problem(Problem{Pos: nodePos(file, kindNode), Severity: SevError, Code: CodeUnknownKind,
			Msg: "Kubernetes " + Safe(api.Value()) + " " + Safe(kind) + " is not Envoy config lbctl reads; expected a CiliumEnvoyConfig, a CiliumClusterwideEnvoyConfig, or a List of them"})
	}
}
