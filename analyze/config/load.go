package config

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/proto"
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

	routesOnce sync.Once // Routes are final once loaded: one index, safe for parallel readers
	routesTo   map[string][]RouteTarget
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
	// SkipNonEnvoy skips the input, with a count on standard error, when
	// it holds no Envoy config, as a file found in a directory is;
	// otherwise that is an input error.
	SkipNonEnvoy bool
}

// LoadBytes reads one in-memory document stream named file.
func LoadBytes(file string, data []byte, kind string) (*Config, error) {
	cfg := &Config{Sources: newSources(), byName: map[string]*Cluster{}, LiveHealth: map[string]map[string]LiveHost{}}
	l := &loader{collector: collector{cfg: cfg}, kind: kind}
	l.data(file, data)
	l.linker().link()
	l.dupConsequences()
	cfg.Problems.sanitize()
	cfg.Problems.Sort()
	cfg.Problems = cfg.Problems.grouped()
	if errs := cfg.Problems.Errors(); len(errs) > 0 {
		return cfg, errs
	}
	return cfg, nil
}

// loader walks inputs' documents and decodes them into messages; the
// collector it embeds keeps what the walk finds for the linker.
type loader struct {
	collector
	kind string
	own  bool // the document is one of several configurations in its file
}

// collector gathers the decoded resources: clusters wait for linking,
// listeners and routes go to the Config, those of a config_dump are ranked
// first by where they stand in it.
type collector struct {
	cfg     *Config
	pending []*pendingCluster
	// dump collects the resources of the config_dump being read, ranked
	// by where they stand in it (rank).
	dump *dumpScope
	rank int
	// sections joins dump sections saved alone (sections.go).
	sections *dumpScope
	units    []unit // the documents read, for dupConsequences
}

type pendingCluster struct {
	c *clusterv3.Cluster
	// bootstrap: a dumped bootstrap's static cluster that no section of
	// its dump lists again (sameResource).
	bootstrap bool
}

func (l *collector) problem(p Problem) { addProblem(l.cfg, p) }

// addProblem records p on cfg, its message made safe to print.
func addProblem(cfg *Config, p Problem) {
	p.Msg = safeMsg(p.Msg)
	cfg.Problems = append(cfg.Problems, p)
}

// yamlOrJSON reports a .yaml, .yml or .json file name.
func yamlOrJSON(p string) bool {
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
	text := string(data) // one copy, shared by Sources and the tree
	l.cfg.Sources.addFile(file, text)
	clean, tpl := detemplate(text)
	docs, probs := parseText(file, clean, Limits{})
	if tpl != nil {
		probs = append(probs, tpl.notice(file))
	}
	if len(docs) > 0 {
		l.cfg.Sources.expect(treeOf(docs[0]).Maps)
	}
	l.cfg.Problems = append(l.cfg.Problems, probs...)
	if len(docs) == 0 && len(probs) == 0 {
		l.problem(Problem{Pos: Pos{File: file, Line: 1, Col: 1}, Severity: SevWarning, Code: CodeUnknownKind, Msg: "file has no document"})
	}
	for _, doc := range docs {
		l.units = append(l.units, unit{file: file, node: doc, kind: l.kind})
		l.document(file, doc, l.kind)
	}
}

func (l *loader) decoder(file string, lenient bool) *decoder {
	return &decoder{file: file, src: l.cfg.Sources, lenient: lenient}
}

// decode fills m from n and collects the decoder's problems.
func (l *loader) decode(file string, n node, m proto.Message, lenient bool) {
	d := l.decoder(file, lenient)
	d.message(n, m.ProtoReflect())
	l.cfg.Problems = append(l.cfg.Problems, d.probs...)
}

func (l *collector) addCluster(file string, c *clusterv3.Cluster) {
	if l.dump != nil {
		l.dump.clusters.add(c.GetName(), c, l.rank)
		return
	}
	l.pending = append(l.pending, &pendingCluster{c: c})
}

func (l *collector) addBootstrap(file string, b *bootstrapv3.Bootstrap) {
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
func (l *collector) addListener(li *listenerv3.Listener) {
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
func (l *collector) addRoutes(r *routev3.RouteConfiguration, rank int) {
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
