package config

import (
	"fmt"
	"math"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"

	"github.com/lbctl/lbctl/lbmodel"
)

// linker joins a loaded configuration's pieces once every file is read
// (names, EDS assignments, live health) and checks what only the whole
// configuration shows.
type linker struct {
	cfg     *Config
	pending []*pendingCluster
	// bootstrap: clusters known only from a dumped bootstrap (sections.go).
	bootstrap map[*Cluster]bool
}

func (l *loader) linker() *linker {
	l.flushSections()
	return &linker{cfg: l.cfg, pending: l.pending}
}

func (l *linker) problem(p Problem) { addProblem(l.cfg, p) }

// link joins the pieces: cluster names, EDS assignments, live health.
func (l *linker) link() {
	src := l.cfg.Sources
	for _, p := range l.pending {
		name := p.c.GetName()
		if prev, ok := l.cfg.byName[name]; ok {
			if l.sameResource(prev, p) {
				continue
			}
			l.problem(Problem{Pos: src.FieldPos(p.c, "name"), Severity: SevWarning, Code: CodeDuplicateName,
				Msg: fmt.Sprintf("cluster %q is defined again (first at %s); the later definition replaces it, as a CDS update would", name, src.Pos(prev.Proto))})
			prev.Proto = p.c
			continue
		}
		cl := &Cluster{Proto: p.c}
		if p.bootstrap {
			l.fromBootstrap(cl)
		}
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
func (l *linker) checkAssignment(a interface {
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
				l.problem(Problem{Pos: l.cfg.Sources.ValuePos(sa, "port_value"), Severity: SevError, Code: CodePortRange,
					Msg: fmt.Sprintf("port %d is above 65535; Envoy rejects the endpoint's cluster", sa.GetPortValue())})
			}
		}
		if g.GetPriority() > maxPriority {
			l.problem(Problem{Pos: l.cfg.Sources.ValuePos(g, "priority"), Severity: SevError, Code: CodePriorityRange,
				Msg: fmt.Sprintf("priority %d is above Envoy's limit of %d", g.GetPriority(), maxPriority)})
		}
	}
}

// checkPanicNaN rejects a NaN healthy_panic_threshold, as Envoy does: the
// PGV range check lets NaN through (every comparison is false), but
// PROTOBUF_PERCENT_TO_ROUNDED_INTEGER_OR_DEFAULT (source/common/protobuf/
// utility.h) throws "Value not in the range of 0..100 range.".
func (l *linker) checkPanicNaN(c *clusterv3.Cluster) {
	t := c.GetCommonLbConfig().GetHealthyPanicThreshold()
	if t == nil || !math.IsNaN(t.GetValue()) {
		return
	}
	l.problem(Problem{Pos: l.cfg.Sources.ValuePos(t, "value"), Severity: SevError, Code: CodeInvalidValue,
		Msg: fmt.Sprintf("cluster %q: healthy_panic_threshold is NaN; Envoy rejects the cluster (\"Value not in the range of 0..100 range.\")", c.GetName())})
}

const aggregateConfigType = "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig"

// checkAggregateConfig rejects an envoy.clusters.aggregate cluster whose
// typed_config is another type: Envoy picks the cluster factory by name
// and unpacks typed_config into its ClusterConfig
// (ConfigurableClusterFactoryBase, Config::Utility::translateOpaqueConfig),
// which fails ("Unable to unpack as ..."), so the cluster is rejected.
func (l *linker) checkAggregateConfig(c *clusterv3.Cluster) {
	ct := c.GetClusterType()
	if ct.GetName() != "envoy.clusters.aggregate" || ct.GetTypedConfig() == nil || ct.GetTypedConfig().GetTypeUrl() == aggregateConfigType {
		return
	}
	pos := l.cfg.Sources.ValuePos(ct.GetTypedConfig(), "@type")
	if pos.File == "" {
		pos = l.cfg.Sources.FieldPos(ct, "typed_config")
	}
	l.problem(Problem{Pos: pos, Severity: SevError, Code: CodeType,
		Msg: fmt.Sprintf("cluster %q: cluster_type envoy.clusters.aggregate needs a typed_config of type %s, not %s; Envoy rejects the cluster (unable to unpack)",
			c.GetName(), strings.TrimPrefix(aggregateConfigType, "type.googleapis.com/"), strings.TrimPrefix(ct.GetTypedConfig().GetTypeUrl(), "type.googleapis.com/"))})
}

// maxHosts is MaxHosts; tests lower it.
var maxHosts = MaxHosts

// checkHosts bounds the endpoints of one configuration (MaxHosts), at the
// endpoint that passes the bound: every report builds per-host state.
func (l *linker) checkHosts() {
	n := 0
	check := func(a *endpointv3.ClusterLoadAssignment) bool {
		for _, g := range a.GetEndpoints() {
			if n += len(g.GetLbEndpoints()); n > maxHosts {
				l.problem(Problem{Pos: l.cfg.Sources.ElemPos(g, "lb_endpoints", len(g.GetLbEndpoints())-(n-maxHosts)), Severity: SevError, Code: CodeInvalidValue,
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
