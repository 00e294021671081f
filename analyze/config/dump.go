package config

import (
	"fmt"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// Where a resource stands in an admin config_dump, lowest rank first. One
// dump names the same resource in several places (envoy/admin/v3
// config_dump_shared.proto): a bootstrap static cluster both under
// BootstrapConfigDump.bootstrap.static_resources and
// ClustersConfigDump.static_clusters, a cluster being updated both under
// dynamic_active_clusters and dynamic_warming_clusters, a static listener's
// inline route config both in the listener and in
// RoutesConfigDump.static_route_configs. They are one resource; the one
// Envoy serves with wins.
const (
	rankNone      = iota
	rankBootstrap // bootstrap.static_resources, as configured at start
	rankInline    // a route config inlined in a dumped listener
	rankWarming   // dynamic_warming_clusters, warming_state, draining_state: not serving yet (or any more)
	rankStatic    // static_clusters, static_listeners, static_route_configs
	rankActive    // dynamic_active_clusters, active_state, dynamic_route_configs
)

// dumpScope collects one config_dump's resources by name; names are
// unique inside one Envoy (ClusterManagerImpl, ListenerManagerImpl keep one
// map per name), so a repeated name is the same resource seen twice.
type dumpScope struct {
	clusters  named[*clusterv3.Cluster]
	listeners named[*listenerv3.Listener]
	routes    named[*routev3.RouteConfiguration]
	// What the dump says of itself, for trimmed (evidence that the file
	// is an excerpt of what Envoy wrote).
	bootstrapStatic  []string        // the bootstrap's static clusters
	googleGRPC       bool            // the bootstrap reaches xDS by google_grpc
	clustersSection  bool            // a ClustersConfigDump is present
	static           map[string]bool // its static_clusters
	dynamic          int             // its dynamic (active or warming) clusters
	files            []string        // the files of joined sections (sections.go)
	bootstrapSection bool            // a BootstrapConfigDump is present
}

// trimmed says why the dump cannot be whole, "" when nothing does:
// Envoy's ClustersConfigDump lists every static cluster of the bootstrap
// (ClusterManagerImpl::dumpClusterConfigs), and dynamic resources need an
// xDS server reached through a statically defined cluster (envoy_grpc
// names one; only google_grpc does without).
func (d *dumpScope) trimmed() string {
	if !d.clustersSection {
		return ""
	}
	for _, name := range d.bootstrapStatic {
		if !d.static[name] {
			return fmt.Sprintf("the bootstrap's static cluster %q is missing from static_clusters", name)
		}
	}
	if d.dynamic > 0 && len(d.static) == 0 && !d.googleGRPC {
		return "it has dynamic clusters but no static cluster to reach the xDS server by"
	}
	return ""
}

// named keeps, per name, the highest-ranked value, in first-seen order.
type named[T any] struct {
	order []string
	by    map[string]rankedValue[T]
}

type rankedValue[T any] struct {
	v    T
	rank int
}

func (n *named[T]) add(name string, v T, rank int) {
	if n.by == nil {
		n.by = map[string]rankedValue[T]{}
	}
	if name == "" { // unnamed (an inline route config): never the same as another
		name = "\x00" + string(rune(len(n.order)))
	}
	prev, ok := n.by[name]
	if !ok {
		n.order = append(n.order, name)
	}
	if !ok || rank >= prev.rank {
		n.by[name] = rankedValue[T]{v, rank}
	}
}

func (n *named[T]) each(f func(T)) {
	for _, name := range n.order {
		f(n.by[name].v)
	}
}

// flushDump hands a finished config_dump's resources to the loader.
func (l *collector) flushDump(file string, d *dumpScope) {
	if why := d.trimmed(); why != "" {
		if l.cfg.trimmed == nil {
			l.cfg.trimmed = map[string]bool{}
		}
		l.cfg.trimmed[file] = true
		for _, f := range d.files {
			l.cfg.trimmed[f] = true
		}
	}
	for _, name := range d.clusters.order {
		rv := d.clusters.by[name]
		l.pending = append(l.pending, &pendingCluster{c: rv.v, bootstrap: rv.rank == rankBootstrap})
	}
	d.listeners.each(func(li *listenerv3.Listener) { l.cfg.Listeners = append(l.cfg.Listeners, li) })
	d.routes.each(func(r *routev3.RouteConfiguration) { l.cfg.Routes = append(l.cfg.Routes, r) })
}

// withRank runs f with resources ranked as rank inside a dump.
func (l *collector) withRank(rank int, f func()) {
	prev := l.rank
	l.rank = rank
	f()
	l.rank = prev
}
