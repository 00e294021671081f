package config

import (
	"fmt"
	"regexp"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// One walk finds Envoy config wherever a document holds it: typed by
// "@type" at any depth, by a key that is a type URL or names a resource
// kind, by a string that is itself an Envoy document (a ConfigMap's
// envoy.yaml), or by a mapping whose keys a resource's schema knows well
// enough. What holds none is named, so that it is skipped with one notice.

// kindDescs are the schemas a mapping is recognised by.
var kindDescs = map[string]protoreflect.MessageDescriptor{
	KindCluster:   (&clusterv3.Cluster{}).ProtoReflect().Descriptor(),
	KindEndpoints: (&endpointv3.ClusterLoadAssignment{}).ProtoReflect().Descriptor(),
	KindRoutes:    (&routev3.RouteConfiguration{}).ProtoReflect().Descriptor(),
	KindListener:  (&listenerv3.Listener{}).ProtoReflect().Descriptor(),
	KindBootstrap: (&bootstrapv3.Bootstrap{}).ProtoReflect().Descriptor(),
}

// kindKeys are the keys (lower case) that name a resource kind.
var kindKeys = map[string]string{
	"cluster": KindCluster, "clusters": KindCluster, "static_clusters": KindCluster, "staticclusters": KindCluster,
	"endpoints": KindEndpoints, "clusterloadassignment": KindEndpoints, "clusterloadassignments": KindEndpoints,
	"listener": KindListener, "listeners": KindListener,
	"routes": KindRoutes, "route_configs": KindRoutes, "routeconfigs": KindRoutes, "routeconfiguration": KindRoutes,
	"routeconfigurations": KindRoutes,
	"bootstrap":           KindBootstrap,
}

// maxFindDepth bounds the walk; embedded strings nest at most twice.
const (
	maxFindDepth    = 64
	maxEmbedNesting = 2
)

// finder collects the Envoy documents found in one file.
type finder struct {
	file    string
	src     *Sources
	units   []unit
	skipped []string // top-level parts holding no Envoy config
	skipPos Pos      // where the first of them is
	nest    int      // embedded strings being read
	probs   Problems // of embedded strings, placed in the file
}

func (f *finder) add(n node, kind string) {
	f.units = append(f.units, unit{file: f.file, node: n, kind: kind})
}

func (f *finder) skip(n node, what string) {
	if len(f.skipped) == 0 {
		f.skipPos = nodePos(f.file, n)
	}
	f.skipped = append(f.skipped, what)
}

// document finds the Envoy config of one top-level document. A shape lbctl
// reads as a whole is kept whole (its kind detected again on loading).
func (f *finder) document(doc node) bool {
	d := parse.Resolve(doc)
	if isNull(d) || d.Kind() == mappingNode && d.Len() == 0 {
		f.add(doc, "") // an empty document: as before, no resources
		return true
	}
	kind := detectKind(d)
	switch {
	case kind == "list":
		if noResources(d) {
			return f.walk(d, 1)
		}
	case kind == kindKubernetes:
		return f.kubernetes(d, 1)
	case kind == KindClusters && d.Kind() == mappingNode:
		if v, _ := parse.MapGet(d, "clusters"); v.Kind() == mappingNode || misshapen(d) {
			return f.walkTop(d)
		}
	case kind == kindResourceMap && misshapen(d):
		return f.walkTop(d)
	case kind == KindDiscovery:
		// A "resources" mapping is not a DiscoveryResponse's list (Helm
		// values' resources: {limits: …}): searched like any other key.
		if v, _ := parse.MapGet(d, "resources"); parse.Resolve(v).Kind() == mappingNode {
			return f.walkTop(d)
		}
	case kind == "":
		if egctlWithoutXDS(d) {
			return false
		}
		return f.walkTop(d)
	case kindDescs[kind] != nil && weak(d, kind):
		return f.walkTop(d)
	}
	f.add(doc, "")
	return true
}

// walkTop walks the pairs of a top-level mapping, naming the keys that hold
// nothing.
func (f *finder) walkTop(d node) bool {
	if d.Kind() != mappingNode {
		return f.walk(d, 1)
	}
	found := false
	for i := 0; i+1 < d.Len(); i += 2 {
		k, v := d.Child(i), parse.Resolve(d.Child(i+1))
		if f.keyed(k.Value(), v) || f.walk(v, 1) {
			found = true
			continue
		}
		f.skip(k, "\""+printable(k.Value())+"\"")
	}
	return found
}

// weak reports a top-level mapping detected as kind whose keys mostly are
// not that resource's (Helm values with a clusterName, a container
// definition with a name): it is searched, not read as kind.
func weak(n node, kind string) bool {
	known, total := knownKeys(n, kindDescs[kind])
	return total-known >= 3 && 2*known < total
}

// convincing reports a nested mapping that reads as kind: two keys or more
// known to its schema, and most of them (a lone name is anything's).
func convincing(n node, kind string) bool {
	known, total := knownKeys(n, kindDescs[kind])
	return known >= 2 && 2*known >= total
}

func knownKeys(n node, desc protoreflect.MessageDescriptor) (known, total int) {
	for i := 0; i+1 < n.Len(); i += 2 {
		total++
		if knowsField(desc, n.Child(i).Value()) {
			known++
		}
	}
	return known, total
}

// nestedKind is the kind of a mapping found inside another document, by
// schema alone, or "".
func nestedKind(n node) string {
	kind := detectKind(n)
	switch kind {
	case KindCluster, KindEndpoints, KindRoutes, KindListener, KindBootstrap:
		if convincing(n, kind) {
			return kind
		}
	case KindConfigDump, KindDiscovery:
		if c, _ := parse.MapGet(n, "configs", "resources"); c.Kind() == sequenceNode && typedItems(c) {
			return kind
		}
	}
	return ""
}

// typedItems reports a list whose first item carries an Envoy "@type".
func typedItems(n node) bool {
	if n.Len() == 0 {
		return false
	}
	t, _ := parse.MapGet(discoveryItem(n.Child(0)), "@type")
	return isTypeURL(str(t))
}

// isTypeURL reports an Envoy (or xDS) type URL.
func isTypeURL(s string) bool {
	return strings.HasPrefix(s, "type.googleapis.com/envoy.") || strings.HasPrefix(s, "type.googleapis.com/xds.") ||
		strings.HasPrefix(s, "type.googleapis.com/udpa.")
}

// urlKind is the kind of the resource a type URL names, or "".
func urlKind(s string) string {
	switch s[strings.LastIndexByte(s, '/')+1:] {
	case "envoy.config.cluster.v3.Cluster", "envoy.api.v2.Cluster":
		return KindCluster
	case "envoy.config.endpoint.v3.ClusterLoadAssignment", "envoy.api.v2.ClusterLoadAssignment":
		return KindEndpoints
	case "envoy.config.listener.v3.Listener", "envoy.api.v2.Listener":
		return KindListener
	case "envoy.config.route.v3.RouteConfiguration", "envoy.api.v2.RouteConfiguration":
		return KindRoutes
	case "envoy.config.bootstrap.v3.Bootstrap":
		return KindBootstrap
	}
	return ""
}

// walk finds Envoy config at n and below.
func (f *finder) walk(n node, depth int) bool {
	n = parse.Resolve(n)
	if depth > maxFindDepth {
		return false
	}
	switch n.Kind() {
	case scalarNode:
		return f.embedded(n)
	case sequenceNode:
		found := false
		for i := range n.Len() {
			if f.walk(n.Child(i), depth+1) {
				found = true
			}
		}
		return found
	case mappingNode:
	default:
		return false
	}
	if isKubernetes(n) {
		return f.kubernetes(n, depth)
	}
	if t, _ := parse.MapGet(n, "@type"); t.OK() && isTypeURL(str(t)) {
		f.add(n, "typed")
		return true
	}
	if kind := nestedKind(n); kind != "" {
		f.add(n, kind)
		return true
	}
	found := false
	for i := 0; i+1 < n.Len(); i += 2 {
		k, v := n.Child(i), parse.Resolve(n.Child(i+1))
		if f.keyed(k.Value(), v) || f.walk(v, depth+1) {
			found = true
		}
	}
	return found
}

// keyed reads the value of a key that is a type URL or names a resource
// kind (any case): a list of resources, or a map of them by name.
func (f *finder) keyed(key string, v node) bool {
	kind := ""
	if isTypeURL(key) {
		kind = urlKind(key)
	} else {
		kind = kindKeys[strings.ToLower(key)]
	}
	if kind == "" || v.Kind() != mappingNode && v.Kind() != sequenceNode {
		return false
	}
	if v.Kind() == mappingNode && f.carrier(v) {
		return true
	}
	if v.Kind() == mappingNode && plausible(v, kind) {
		f.add(v, kind)
		return true
	}
	found := false
	step := 1
	start := 0
	if v.Kind() == mappingNode {
		start, step = 1, 2 // the values of a map by name
	}
	for i := start; i < v.Len(); i += step {
		item := parse.Resolve(v.Child(i))
		if item.Kind() != mappingNode {
			continue
		}
		if t, _ := parse.MapGet(item, "@type"); isTypeURL(str(t)) {
			f.add(item, "typed")
			found = true
		} else if f.carrier(item) {
			found = true
		} else if plausible(item, kind) {
			f.add(item, kind)
			found = true
		}
	}
	return found
}

// plausible reports an item under a kind's key that reads as that kind:
// half of its keys known, one at least.
func plausible(n node, kind string) bool {
	known, total := knownKeys(n, kindDescs[kind])
	return known >= 1 && 2*known >= total && (total > 1 || kind != KindCluster)
}

// kubernetes finds Envoy config in a Kubernetes object: the resources of a
// CiliumEnvoyConfig, the items of a List, the string data of a ConfigMap,
// the patches of an EnvoyPatchPolicy, else anything in its spec.
func (f *finder) kubernetes(n node, depth int) bool {
	kindNode, _ := parse.MapGet(n, "kind")
	api, _ := parse.MapGet(n, "apiVersion")
	kind := kindNode.Value()
	name, _ := parse.MapGet(n, "metadata")
	name, _ = parse.MapGet(name, "name")
	what := "Kubernetes " + printable(kind)
	if name.Kind() == scalarNode {
		what += " " + printable(name.Value())
	}
	found := false
	switch {
	case strings.HasSuffix(kind, "List"):
		items, _ := parse.MapGet(n, "items")
		for i := range items.Len() {
			if f.walk(items.Child(i), depth+1) {
				found = true
			}
		}
		if items.Len() == 0 {
			found = true // an empty List: nothing to read, nothing to refuse
		}
	case strings.HasPrefix(kind, "Cilium") && strings.HasSuffix(kind, "EnvoyConfig") && strings.HasPrefix(str(api), "cilium.io/"):
		f.add(n, "")
		return true
	case kind == "EnvoyPatchPolicy":
		found = f.patches(n, what)
	case kind == "ConfigMap":
		data, _ := parse.MapGet(n, "data")
		for i := 1; i < data.Len(); i += 2 {
			if v := parse.Resolve(data.Child(i)); v.Kind() == scalarNode && f.embedded(v) {
				found = true
			}
		}
	default:
		spec, _ := parse.MapGet(n, "spec")
		found = f.walk(spec, depth+1)
	}
	if !found {
		f.skip(kindNode, what)
	}
	return found
}

// patches reads the whole resources an EnvoyPatchPolicy adds (a JSON patch
// at the root, typed by its "type"); patches of parts of a resource are
// not resources of their own.
func (f *finder) patches(n node, what string) bool {
	spec, _ := parse.MapGet(n, "spec")
	list, _ := parse.MapGet(spec, "jsonPatches")
	found := false
	for i := range list.Len() {
		p := parse.Resolve(list.Child(i))
		t, _ := parse.MapGet(p, "type")
		op, _ := parse.MapGet(p, "operation")
		path, _ := parse.MapGet(op, "path")
		v, _ := parse.MapGet(op, "value")
		kind := urlKind(str(t))
		if kind == "" || v.Kind() != mappingNode || strings.Trim(str(path), "/") != "" {
			// A patch of part of a resource changes a resource lbctl
			// does not have: named in the one notice, not read.
			opName, _ := parse.MapGet(op, "op")
			f.skip(p, fmt.Sprintf("%s's patch %q of %s (not applied)", what, printable(str(opName))+" "+printable(str(path)), printable(str(t))))
			continue
		}
		f.add(v, kind)
		found = true
	}
	return found
}

var sentinelRun = regexp.MustCompile(string(sentinel) + `[0-9a-z]*`)

// printable shortens s for a notice, drops control characters and
// escapes option delimiters.
func printable(s string) string {
	s = sentinelRun.ReplaceAllString(s, "{{…}}")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	// Delimiters escaped: an input key must not pass for an option.
	return escapeDelimiters(s)
}

// skippedMsg is the one notice of what a file held besides Envoy config.
func skippedMsg(parts []string) string {
	shown := parts
	if len(shown) > 5 {
		shown = shown[:5]
	}
	msg := "skipped what is not Envoy config: " + strings.Join(shown, ", ")
	if len(parts) > len(shown) {
		msg += " and " + itoa(len(parts)-len(shown)) + " more"
	}
	return msg
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// str is a node's scalar value, "" for no node.
func str(n node) string {
	if !n.OK() {
		return ""
	}
	return n.Value()
}
