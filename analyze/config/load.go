package config

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/proto"

	"github.com/lbctl/lbctl/lbmodel"
)

// Kinds of document lbctl reads; "" detects the kind from the document's shape.
const (
	KindCluster    = "cluster"
	KindClusters   = "clusters"
	KindBootstrap  = "bootstrap"
	KindEndpoints  = "endpoints"
	KindRoutes     = "routes"
	KindListener   = "listener"
	KindConfigDump = "config_dump"
	KindAdmin      = "clusters_admin"
	KindDiscovery  = "discovery"
)

// Kinds lists the values --kind accepts.
var Kinds = []string{KindCluster, KindClusters, KindBootstrap, KindEndpoints, KindRoutes, KindListener, KindConfigDump, KindAdmin, KindDiscovery, KindClientStatus}

// Config is every input file read as one Envoy configuration.
type Config struct {
	Sources     *Sources
	Files       []string
	Clusters    []*Cluster // in the order they were read; names are unique
	Assignments []*endpointv3.ClusterLoadAssignment
	Routes      []*routev3.RouteConfiguration
	Listeners   []*listenerv3.Listener
	Bootstraps  []*bootstrapv3.Bootstrap
	// LiveHealth is host health read from an admin /clusters dump, by
	// cluster name then host address.
	LiveHealth map[string]map[string]LiveHost
	// Problems found while reading: errors make a file unusable, warnings
	// (unknown extension types, v2 syntax) do not.
	Problems Problems

	// Partial names the clusters whose EDS assignments an Envoy-written
	// dump holds but whose clusters it does not list: Envoy only dumps
	// assignments of clusters it has (EdsClusterImpl subscribes per
	// cluster), so such a dump was trimmed and lost part of its clusters.
	Partial []string

	byName  map[string]*Cluster
	written map[string]bool
	trimmed map[string]bool

	routesTo  map[string][]RouteTarget // RoutesTo's index over Routes
	routesToN int                      // len(Routes) when it was built
}

// Trimmed reports whether file is an Envoy-written dump that provably lost
// part of its clusters (see Partial): "not defined" there says nothing
// about the real proxy.
func (c *Config) Trimmed(file string) bool { return c.trimmed[file] }

// EnvoyWritten reports whether file holds an admin config_dump (or a
// section of one): Envoy wrote it, and accepted everything in it.
func (c *Config) EnvoyWritten(file string) bool { return c.written[file] }

// Cluster is one loaded cluster with its endpoints resolved.
type Cluster struct {
	Proto *clusterv3.Cluster
	// Assignment is the cluster's endpoints: the EDS ClusterLoadAssignment
	// joined by name for EDS clusters, else the inline load_assignment; nil
	// when there are none.
	Assignment *endpointv3.ClusterLoadAssignment
	// FromEDS is true when Assignment came from a separate EDS resource.
	FromEDS bool
}

// Name is the cluster's name.
func (c *Cluster) Name() string { return c.Proto.GetName() }

// Cluster finds a cluster by name.
func (c *Config) Cluster(name string) *Cluster { return c.byName[name] }

// ClusterNames lists the loaded clusters' names in load order.
func (c *Config) ClusterNames() []string {
	out := make([]string, len(c.Clusters))
	for i, cl := range c.Clusters {
		out[i] = cl.Name()
	}
	return out
}

// Input is one thing to read: a file or directory path, or "-" for stdin.
type Input struct {
	Path string
	// Stdin is read when Path is "-".
	Stdin io.Reader
	// Data, when not nil, is read in place of a file; Path names it
	// (e.g. an answer fetched from an admin endpoint).
	Data []byte
}

// LoadBytes reads one in-memory document stream named file.
func LoadBytes(file string, data []byte, kind string) (*Config, error) {
	cfg := &Config{Sources: newSources(), byName: map[string]*Cluster{}, LiveHealth: map[string]map[string]LiveHost{}}
	l := &loader{cfg: cfg, kind: kind}
	l.data(file, data)
	l.link()
	cfg.Problems.sanitize()
	cfg.Problems.Sort()
	if errs := cfg.Problems.Errors(); len(errs) > 0 {
		return cfg, errs
	}
	return cfg, nil
}

type loader struct {
	cfg     *Config
	kind    string
	pending []*pendingCluster
	// dump collects the resources of the config_dump being read, ranked
	// by where they stand in it (rank).
	dump *dumpScope
	rank int
}

type pendingCluster struct {
	c    *clusterv3.Cluster
	file string
}

func (l *loader) problem(p Problem) {
	p.Msg = safeMsg(p.Msg)
	l.cfg.Problems = append(l.cfg.Problems, p)
}

// IsConfigFile reports a file name lbctl reads in a directory.
func IsConfigFile(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func ioMessage(err error) string {
	var pe *fs.PathError
	if os.IsNotExist(err) {
		return "no such file or directory"
	}
	if os.IsPermission(err) {
		return "permission denied"
	}
	if ok := asPathError(err, &pe); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func asPathError(err error, pe **fs.PathError) bool {
	p, ok := err.(*fs.PathError)
	if ok {
		*pe = p
	}
	return ok
}

func (l *loader) data(file string, data []byte) {
	l.cfg.Files = append(l.cfg.Files, file)
	l.cfg.Sources.addFile(file, data)
	docs, probs := parseDocuments(file, data)
	l.cfg.Problems = append(l.cfg.Problems, probs...)
	if len(docs) == 0 && len(probs) == 0 {
		l.problem(Problem{Pos: Pos{File: file, Line: 1, Col: 1}, Severity: SevWarning, Code: CodeUnknownKind, Msg: "file has no document"})
	}
	for _, doc := range docs {
		l.document(file, doc, l.kind)
	}
}

func (l *loader) decoder(file string, lenient bool) *decoder {
	return &decoder{file: file, src: l.cfg.Sources, lenient: lenient}
}

// decode fills m from n and collects the decoder's problems.
func (l *loader) decode(file string, n *yaml.Node, m proto.Message, lenient bool) {
	d := l.decoder(file, lenient)
	d.message(n, m.ProtoReflect())
	l.cfg.Problems = append(l.cfg.Problems, d.probs...)
}

func (l *loader) addCluster(file string, c *clusterv3.Cluster) {
	if l.dump != nil {
		l.dump.clusters.add(c.GetName(), c, l.rank)
		return
	}
	l.pending = append(l.pending, &pendingCluster{c: c, file: file})
}

func (l *loader) addBootstrap(file string, b *bootstrapv3.Bootstrap) {
	if b == nil {
		return
	}
	l.cfg.Bootstraps = append(l.cfg.Bootstraps, b)
	l.withRank(rankBootstrap, func() {
		for _, c := range b.GetStaticResources().GetClusters() {
			l.addCluster(file, c)
		}
		for _, li := range b.GetStaticResources().GetListeners() {
			l.addListener(li)
		}
	})
}

// addListener keeps the listener and the route configs inlined in its HTTP
// connection managers.
func (l *loader) addListener(li *listenerv3.Listener) {
	if l.dump != nil {
		l.dump.listeners.add(li.GetName(), li, l.rank)
	} else {
		l.cfg.Listeners = append(l.cfg.Listeners, li)
	}
	chains := append([]*listenerv3.FilterChain{}, li.GetFilterChains()...)
	if li.GetDefaultFilterChain() != nil {
		chains = append(chains, li.GetDefaultFilterChain())
	}
	for _, fc := range chains {
		for _, f := range fc.GetFilters() {
			if hcm, ok := l.cfg.Sources.Unpacked(f.GetTypedConfig()).(*hcmv3.HttpConnectionManager); ok {
				if rc := hcm.GetRouteConfig(); rc != nil {
					l.addRoutes(rc, rankInline)
				}
			}
		}
	}
	// A proxyless gRPC client gets its routes from the api_listener's
	// HttpConnectionManager (gRFC A27), possibly inline.
	if hcm, ok := l.cfg.Sources.Unpacked(li.GetApiListener().GetApiListener()).(*hcmv3.HttpConnectionManager); ok {
		if rc := hcm.GetRouteConfig(); rc != nil {
			l.cfg.Routes = append(l.cfg.Routes, rc)
		}
	}
}

// addRoutes keeps a route configuration; rank orders it inside a dump.
func (l *loader) addRoutes(r *routev3.RouteConfiguration, rank int) {
	if r.GetVhds() != nil {
		// Virtual hosts delivered on demand (VHDS) are not in the route
		// configuration resource itself; an Envoy-written dump shows the
		// merged result, a control plane's file does not.
		if pos := l.cfg.Sources.FieldPos(r, "vhds"); !l.cfg.EnvoyWritten(pos.File) {
			l.problem(Problem{Pos: pos, Severity: SevWarning, Code: CodeReference,
				Msg: fmt.Sprintf("route configuration %q uses VHDS: only the virtual hosts written here are read, not those Envoy would fetch on demand", r.GetName())})
		}
	}
	if l.dump != nil {
		l.dump.routes.add(r.GetName(), r, rank)
		return
	}
	l.cfg.Routes = append(l.cfg.Routes, r)
}

// link joins the pieces: cluster names, EDS assignments, live health.
func (l *loader) link() {
	src := l.cfg.Sources
	for _, p := range l.pending {
		name := p.c.GetName()
		if prev, ok := l.cfg.byName[name]; ok {
			l.problem(Problem{Pos: src.FieldPos(p.c, "name"), Severity: SevWarning, Code: CodeDuplicateName,
				Msg: fmt.Sprintf("cluster %q is defined again (first at %s); the later definition replaces it, as a CDS update would", name, src.Pos(prev.Proto))})
			prev.Proto = p.c
			continue
		}
		cl := &Cluster{Proto: p.c}
		l.cfg.byName[name] = cl
		l.cfg.Clusters = append(l.cfg.Clusters, cl)
	}
	// EDS resources are named by eds_cluster_config.service_name when set.
	byService := map[string]*Cluster{}
	for _, cl := range l.cfg.Clusters {
		key := cl.Name()
		if sn := cl.Proto.GetEdsClusterConfig().GetServiceName(); sn != "" {
			key = sn
		}
		if _, ok := byService[key]; !ok {
			byService[key] = cl
		}
		if la := cl.Proto.GetLoadAssignment(); la != nil {
			cl.Assignment = la
		}
	}
	for _, cl := range l.cfg.Clusters {
		l.checkAssignment(cl.Proto.GetLoadAssignment())
		l.checkPanicNaN(cl.Proto)
		l.checkAggregateConfig(cl.Proto)
	}
	l.checkHosts()
	joined := map[*Cluster]*endpointv3.ClusterLoadAssignment{}
	for _, a := range l.cfg.Assignments {
		l.checkAssignment(a)
		if a.GetClusterName() == "" {
			// Envoy rejects it (cluster_name: min_len 1; lint LB1015), and
			// EDS could not join it to any cluster.
			l.problem(Problem{Pos: src.Pos(a), Severity: SevInfo, Code: CodeReference,
				Msg: "ClusterLoadAssignment has no cluster_name, so it belongs to no cluster; its endpoints are not used"})
			continue
		}
		cl := byService[a.GetClusterName()]
		if cl == nil {
			cl = l.cfg.byName[a.GetClusterName()]
		}
		if cl == nil {
			if file := src.Pos(a).File; l.cfg.EnvoyWritten(file) {
				if l.cfg.trimmed == nil {
					l.cfg.trimmed = map[string]bool{}
				}
				l.cfg.trimmed[file] = true
				l.cfg.Partial = append(l.cfg.Partial, a.GetClusterName())
			}
			if len(l.cfg.Clusters) > 0 {
				l.problem(Problem{Pos: src.FieldPos(a, "cluster_name"), Severity: SevWarning, Code: CodeReference,
					Msg: fmt.Sprintf("ClusterLoadAssignment for %q matches no loaded cluster", a.GetClusterName())})
			}
			continue
		}
		file := src.Pos(a).File
		if !l.cfg.EnvoyWritten(file) && !usesEDS(cl.Proto) && len(cl.Proto.GetLoadAssignment().GetEndpoints()) > 0 {
			// Only EDS clusters subscribe to assignments (EdsClusterImpl);
			// a STATIC or DNS cluster keeps its own load_assignment. (An
			// Envoy-written dump lists every cluster's current hosts as an
			// assignment, so there it is the truth.)
			l.problem(Problem{Pos: src.FieldPos(a, "cluster_name"), Severity: SevWarning, Code: CodeReference,
				Msg: fmt.Sprintf("ClusterLoadAssignment for %q is not used: the cluster is %s and keeps its inline load_assignment (only EDS clusters take assignments)", a.GetClusterName(), cl.Proto.GetType())})
			continue
		}
		if prev, ok := joined[cl]; ok {
			l.problem(Problem{Pos: src.FieldPos(a, "cluster_name"), Severity: SevWarning, Code: CodeDuplicateName,
				Msg: fmt.Sprintf("second ClusterLoadAssignment for %q (first at %s); this later one is used, as an EDS update replaces the previous one", a.GetClusterName(), src.Pos(prev))})
		}
		joined[cl] = a
		cl.Assignment = a
		cl.FromEDS = true
	}
}

// usesEDS reports a cluster whose endpoints come from EDS: type EDS, or a
// custom cluster type (which may read assignments its own way).
func usesEDS(c *clusterv3.Cluster) bool {
	return c.GetClusterType() != nil || c.GetType() == clusterv3.Cluster_EDS
}

// maxPriority is the largest priority Envoy accepts (PGV: lte 128).
const maxPriority = lbmodel.MaxPriority

// checkAssignment rejects what the model cannot hold: priorities beyond
// Envoy's limit (each priority is a level, so a huge one would be a huge
// allocation).
func (l *loader) checkAssignment(a interface {
	GetEndpoints() []*endpointv3.LocalityLbEndpoints
}) {
	if a == nil {
		return
	}
	for _, g := range a.GetEndpoints() {
		for _, e := range g.GetLbEndpoints() {
			// SocketAddress.port_value is PGV lte: 65535; Envoy rejects
			// the cluster, so explain must not model it.
			if sa := e.GetEndpoint().GetAddress().GetSocketAddress(); sa.GetPortValue() > 65535 {
				l.problem(Problem{Pos: l.cfg.Sources.ValuePos(sa, "port_value"), Code: CodePortRange,
					Msg: fmt.Sprintf("port %d is above 65535; Envoy rejects the endpoint's cluster", sa.GetPortValue())})
			}
		}
		if g.GetPriority() > maxPriority {
			l.problem(Problem{Pos: l.cfg.Sources.ValuePos(g, "priority"), Code: CodePriorityRange,
				Msg: fmt.Sprintf("priority %d is above Envoy's limit of %d", g.GetPriority(), maxPriority)})
		}
	}
}

// checkPanicNaN rejects a NaN healthy_panic_threshold, as Envoy does: the
// PGV range check lets NaN through (every comparison is false), but
// PROTOBUF_PERCENT_TO_ROUNDED_INTEGER_OR_DEFAULT (source/common/protobuf/
// utility.h) throws "Value not in the range of 0..100 range.".
func (l *loader) checkPanicNaN(c *clusterv3.Cluster) {
	t := c.GetCommonLbConfig().GetHealthyPanicThreshold()
	if t == nil || !math.IsNaN(t.GetValue()) {
		return
	}
	l.problem(Problem{Pos: l.cfg.Sources.ValuePos(t, "value"), Code: CodeInvalidValue,
		Msg: fmt.Sprintf("cluster %q: healthy_panic_threshold is NaN; Envoy rejects the cluster (\"Value not in the range of 0..100 range.\")", c.GetName())})
}

const aggregateConfigType = "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig"

// checkAggregateConfig rejects an envoy.clusters.aggregate cluster whose
// typed_config is another type: Envoy picks the cluster factory by name
// and unpacks typed_config into its ClusterConfig
// (ConfigurableClusterFactoryBase, Config::Utility::translateOpaqueConfig),
// which fails ("Unable to unpack as ..."), so the cluster is rejected.
func (l *loader) checkAggregateConfig(c *clusterv3.Cluster) {
	ct := c.GetClusterType()
	if ct.GetName() != "envoy.clusters.aggregate" || ct.GetTypedConfig() == nil || ct.GetTypedConfig().GetTypeUrl() == aggregateConfigType {
		return
	}
	pos := l.cfg.Sources.ValuePos(ct.GetTypedConfig(), "@type")
	if pos.File == "" {
		pos = l.cfg.Sources.FieldPos(ct, "typed_config")
	}
	l.problem(Problem{Pos: pos, Code: CodeType,
		Msg: fmt.Sprintf("cluster %q: cluster_type envoy.clusters.aggregate needs a typed_config of type %s, not %s; Envoy rejects the cluster (unable to unpack)",
			c.GetName(), strings.TrimPrefix(aggregateConfigType, "type.googleapis.com/"), strings.TrimPrefix(ct.GetTypedConfig().GetTypeUrl(), "type.googleapis.com/"))})
}

// maxHosts is MaxHosts; tests lower it.
var maxHosts = MaxHosts

// checkHosts bounds the endpoints of one configuration (MaxHosts), at the
// endpoint that passes the bound: every report builds per-host state.
func (l *loader) checkHosts() {
	n := 0
	check := func(a *endpointv3.ClusterLoadAssignment) bool {
		for _, g := range a.GetEndpoints() {
			if n += len(g.GetLbEndpoints()); n > maxHosts {
				l.problem(Problem{Pos: l.cfg.Sources.ElemPos(g, "lb_endpoints", len(g.GetLbEndpoints())-(n-maxHosts)), Code: CodeInvalidValue,
					Msg: fmt.Sprintf("more than %d endpoints in this configuration (lbctl's limit on hosts)", maxHosts)})
				return false
			}
		}
		return true
	}
	for _, cl := range l.cfg.Clusters {
		if !check(cl.Proto.GetLoadAssignment()) {
			return
		}
	}
	for _, a := range l.cfg.Assignments {
		if !check(a) {
			return
		}
	}
}
