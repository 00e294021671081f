package config

import (
	"fmt"
	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// readUnit reads one document as what it is in its file: one of several
// configurations (own) reads a lone dump section as a dump of its own.
func readUnit(l *loader, u unit) {
	l.own = u.own
	l.document(u.file, u.node, u.kind)
}

// document reads one YAML document of the given (or detected) kind.
func (l *loader) document(file string, n node, kind string) {
	n = parse.Resolve(n)
	if isNull(n) {
		return
	}
	if kind == "" {
		if n.Kind() == mappingNode && n.Len() == 0 {
			return // `{}`, as Kuma writes an empty golden: no resources, like `[]`
		}
		kind = detectKind(n)
		if kind == "list" && noResources(n) {
			l.problem(Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeUnknownKind, Msg: notResourcesMsg})
			return
		}
	}
	switch kind {
	case "":
		msg := notResourcesMsg
		if egctlWithoutXDS(n) {
			msg = egctlWithoutXDSMsg
		}
		l.problem(Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeUnknownKind, Msg: msg})
	case "list":
		for ci := range n.Len() {
			item := n.Child(ci)
			l.document(file, item, "")
		}
	// Documents that hold other documents (wrappers a control plane or a
	// client writes around xDS resources).
	case kindResourceMap:
		readResourceMap(l, file, n)
	case kindKubernetes:
		readKubernetes(l, file, n)
	case kindBootstrapDump:
		readBootstrapDump(l, file, n)
	case KindDiscovery:
		readDiscovery(l, file, n)
	case KindClientStatus:
		readClientStatus(l, file, n)
	case kindEgctl:
		for _, d := range egctlDumps(n) {
			l.document(file, d, "")
		}
	case "typed":
		if wrapped(n) {
			for _, key := range []string{"cluster", "listener", "route_config", "endpoint_config"} {
				if v, _ := parse.MapGet(n, key); v.OK() {
					l.document(file, v, "typed")
				}
			}
			return
		}
		a := &anypb.Any{}
		l.decode(file, n, a, false)
		l.typed(file, a)
	case KindCluster:
		if n.Kind() == sequenceNode {
			for ci := range n.Len() {
				item := n.Child(ci)
				l.document(file, item, KindCluster)
			}
			return
		}
		c := &clusterv3.Cluster{}
		l.decode(file, n, c, false)
		l.addCluster(file, c)
	case KindClusters:
		if n.Kind() == sequenceNode {
			l.document(file, n, KindCluster)
			return
		}
		list, _ := parse.MapGet(n, "clusters")
		if !list.OK() || list.Kind() != sequenceNode {
			l.problem(Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeType, Msg: "expected a list of clusters or a mapping with \"clusters:\""})
			return
		}
		for ci := range list.Len() {
			item := list.Child(ci)
			l.document(file, item, KindCluster)
		}
	case KindBootstrap:
		b := &bootstrapv3.Bootstrap{}
		l.decode(file, n, b, false)
		l.addBootstrap(file, b)
	case KindEndpoints:
		if n.Kind() == sequenceNode {
			for ci := range n.Len() {
				item := n.Child(ci)
				l.document(file, item, KindEndpoints)
			}
			return
		}
		a := &endpointv3.ClusterLoadAssignment{}
		l.decode(file, n, a, false)
		l.cfg.Assignments = append(l.cfg.Assignments, a)
	case KindRoutes:
		if n.Kind() == sequenceNode {
			for ci := range n.Len() {
				item := n.Child(ci)
				l.document(file, item, KindRoutes)
			}
			return
		}
		r := &routev3.RouteConfiguration{}
		l.decode(file, n, r, false)
		l.cfg.Routes = append(l.cfg.Routes, r)
	case KindListener:
		li := &listenerv3.Listener{}
		l.decode(file, n, li, false)
		l.addListener(li)
	case KindConfigDump:
		cd := &adminv3.ConfigDump{}
		l.decode(file, n, cd, true)
		l.configDump(file, cd)
	case KindAdmin:
		cs := &adminv3.Clusters{}
		l.decode(file, n, cs, true)
		l.addLiveHealth(cs)
	default:
		l.problem(Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeUnknownKind, Msg: "unknown kind " + kind})
	}
}

// readDiscovery reads a DiscoveryResponse-shaped document: "resources" holding
// typed resources, or Resource wrappers ({name, resource}).
func readDiscovery(l *loader, file string, n node) {
	res, _ := parse.MapGet(n, "resources")
	if !res.OK() || res.Kind() != sequenceNode {
		l.problem(Problem{Pos: nodePos(file, n), Severity: SevError, Code: CodeType, Msg: "expected \"resources:\" with a list of typed resources"})
		return
	}
	if l.typedInParallel(file, res) {
		return
	}
	for ci := range res.Len() {
		item := discoveryItem(res.Child(ci))
		if t, _ := parse.MapGet(item, "@type"); !t.OK() {
			l.document(file, item, "")
			continue
		}
		a := &anypb.Any{}
		l.decode(file, item, a, false)
		l.typed(file, a)
	}
}

// discoveryItem is the typed resource of a "resources" item: the item, or
// the resource of a Resource wrapper ({name, resource}).
func discoveryItem(item node) node {
	item = parse.Resolve(item)
	if inner, _ := parse.MapGet(item, "resource"); inner.OK() {
		return inner
	}
	return item
}

// typed dispatches a decoded Any by its payload type.
func (l *loader) typed(file string, a *anypb.Any) {
	switch m := l.cfg.Sources.Unpacked(a).(type) {
	case nil:
		// Unknown type: already reported by the decoder.
	case *clusterv3.Cluster:
		l.addCluster(file, m)
	case *endpointv3.ClusterLoadAssignment:
		l.cfg.Assignments = append(l.cfg.Assignments, m)
	case *routev3.RouteConfiguration:
		l.addRoutes(m, l.rank)
	case *listenerv3.Listener:
		l.addListener(m)
	case *bootstrapv3.Bootstrap:
		l.addBootstrap(file, m)
	case *adminv3.ConfigDump:
		l.configDump(file, m)
	case *routev3.ScopedRouteConfiguration:
		warnScopedRoutes(l, file, m, 1)
	case *adminv3.BootstrapConfigDump, *adminv3.ClustersConfigDump, *adminv3.EndpointsConfigDump,
		*adminv3.ListenersConfigDump, *adminv3.RoutesConfigDump, *adminv3.ScopedRoutesConfigDump:
		if l.dump == nil && l.own {
			// One gateway's section in egctl's output: a dump of its own,
			// its resources still named once each.
			l.configDump(file, &adminv3.ConfigDump{Configs: []*anypb.Any{a}})
			return
		}
		if l.dump == nil {
			// A dump section saved alone, joined with the others read
			// (sections.go).
			l.section(file, a)
			return
		}
		l.dumpSection(file, m)
	case *adminv3.Clusters:
		l.addLiveHealth(m)
	}
}

// dumpSection reads one section of an admin config_dump.
func (l *loader) dumpSection(file string, m proto.Message) {
	switch m := m.(type) {
	case *adminv3.BootstrapConfigDump:
		l.addBootstrap(file, m.GetBootstrap())
		if d := l.dump; d != nil {
			d.bootstrapSection = true
			for _, c := range m.GetBootstrap().GetStaticResources().GetClusters() {
				d.bootstrapStatic = append(d.bootstrapStatic, c.GetName())
			}
			dr := m.GetBootstrap().GetDynamicResources()
			d.googleGRPC = dr.GetAdsConfig().GetGrpcServices() != nil && dr.GetAdsConfig().GetGrpcServices()[0].GetGoogleGrpc() != nil
		}
	case *adminv3.ClustersConfigDump:
		if d := l.dump; d != nil {
			d.clustersSection = true
			if d.static == nil {
				d.static = map[string]bool{}
			}
			for _, c := range m.GetStaticClusters() {
				if cl, ok := l.cfg.Sources.Unpacked(c.GetCluster()).(*clusterv3.Cluster); ok {
					d.static[cl.GetName()] = true
				}
			}
			d.dynamic += len(m.GetDynamicActiveClusters()) + len(m.GetDynamicWarmingClusters())
		}
		l.withRank(rankStatic, func() {
			for _, c := range m.GetStaticClusters() {
				l.typed(file, c.GetCluster())
			}
		})
		l.withRank(rankWarming, func() {
			for _, c := range m.GetDynamicWarmingClusters() {
				l.typed(file, c.GetCluster())
			}
		})
		l.withRank(rankActive, func() {
			for _, c := range m.GetDynamicActiveClusters() {
				l.typed(file, c.GetCluster())
			}
		})
	case *adminv3.EndpointsConfigDump:
		for _, e := range m.GetStaticEndpointConfigs() {
			l.typed(file, e.GetEndpointConfig())
		}
		for _, e := range m.GetDynamicEndpointConfigs() {
			l.typed(file, e.GetEndpointConfig())
		}
	case *adminv3.ListenersConfigDump:
		l.withRank(rankStatic, func() {
			for _, li := range m.GetStaticListeners() {
				l.typed(file, li.GetListener())
			}
		})
		for _, li := range m.GetDynamicListeners() {
			l.withRank(rankWarming, func() {
				l.typed(file, li.GetDrainingState().GetListener())
				l.typed(file, li.GetWarmingState().GetListener())
			})
			l.withRank(rankActive, func() { l.typed(file, li.GetActiveState().GetListener()) })
		}
	case *adminv3.ScopedRoutesConfigDump:
		n := 0
		for _, c := range m.GetInlineScopedRouteConfigs() {
			n += len(c.GetScopedRouteConfigs())
		}
		for _, c := range m.GetDynamicScopedRouteConfigs() {
			n += len(c.GetScopedRouteConfigs())
		}
		if n > 0 {
			warnScopedRoutes(l, file, m, n)
		}
	case *adminv3.RoutesConfigDump:
		for _, r := range m.GetStaticRouteConfigs() {
			if rc, ok := l.cfg.Sources.Unpacked(r.GetRouteConfig()).(*routev3.RouteConfiguration); ok {
				l.addRoutes(rc, rankStatic)
			}
		}
		for _, r := range m.GetDynamicRouteConfigs() {
			if rc, ok := l.cfg.Sources.Unpacked(r.GetRouteConfig()).(*routev3.RouteConfiguration); ok {
				l.addRoutes(rc, rankActive)
			}
		}
	}
}

// configDump reads one admin /config_dump, each resource once (dump.go).
func (l *loader) configDump(file string, cd *adminv3.ConfigDump) {
	markWritten(l.cfg, file)
	outer := l.dump
	l.dump = &dumpScope{}
	for _, a := range cd.GetConfigs() {
		l.typed(file, a)
	}
	d := l.dump
	l.dump = outer
	l.flushDump(file, d)
}

// warnScopedRoutes says that n scoped route configurations in m are not
// modelled, rather than dropping them silently: which route configuration
// a request's scope key selects is not read, so routes reached only through
// a scope are not followed.
func warnScopedRoutes(l *loader, file string, m proto.Message, n int) {
	pos := l.cfg.Sources.Pos(m)
	if pos.File == "" {
		pos = Pos{File: file, Line: 1, Col: 1}
	}
	l.problem(Problem{Pos: pos, Severity: SevWarning, Code: CodeUnknownKind,
		Msg: fmt.Sprintf("%d scoped route configuration(s) (SRDS) not modelled: lbctl does not read which route configuration a request's scope key selects", n)})
}
