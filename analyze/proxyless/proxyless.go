// Package proxyless computes what proxyless gRPC (xDS in grpc-go and C-core)
// does with a loaded configuration: the traffic report under gRPC semantics,
// its differences from Envoy (Both) and stateful-session picks (gRFC A75).
package proxyless

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// SemanticsGRPC is Report.Semantics for a proxyless gRPC client's answer.
const SemanticsGRPC = "grpc"

// GRPCOptions are explain's inputs under proxyless gRPC semantics.
type GRPCOptions struct {
	model.Options
	// Impl is the gRPC implementation answered for (C-core implements
	// gRFC A74 and A75; grpc-go A74 only). The other one's differences are
	// notes.
	Impl grpc.Impl
	// BackwardCompat is C-core's GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT
	// =true: the aggregate (root) cluster's LB policy drives every leaf.
	BackwardCompat bool
	// Ready sets priorities' connectivity (--ready); by default a priority
	// is READY when it has a usable endpoint, else TRANSIENT_FAILURE.
	Ready []ReadyOverride
}

// ReadyOverride is one --ready CLUSTER[/PRIORITY]=yes|no|STATE.
type ReadyOverride struct {
	Spec, Cluster string
	Priority      int // -1: every priority of the cluster
	State         grpc.Connectivity
}

// ParseReady reads CLUSTER[/PRIORITY]=yes|no (READY or
// TRANSIENT_FAILURE), or a state name: READY, IDLE, CONNECTING (its
// failover timer expired) or TRANSIENT_FAILURE.
func ParseReady(spec string) (ReadyOverride, error) {
	o := ReadyOverride{Spec: spec, Priority: -1}
	lhs, rhs, ok := strings.Cut(spec, "=")
	if !ok || lhs == "" || rhs == "" {
		return o, fmt.Errorf("%s %q: expected CLUSTER[/PRIORITY]=yes|no", option.Ready, spec)
	}
	o.Cluster = lhs
	if i := strings.LastIndexByte(lhs, '/'); i >= 0 {
		p, err := strconv.Atoi(strings.TrimPrefix(lhs[i+1:], "P"))
		if err != nil || p < 0 || p > 128 {
			return o, fmt.Errorf("%s %q: %q is not a priority (0 to 128)", option.Ready, spec, lhs[i+1:])
		}
		o.Cluster, o.Priority = lhs[:i], p
	}
	switch strings.ToLower(rhs) {
	case "yes", "y", "true":
		o.State = grpc.ConnReady
		return o, nil
	case "no", "n", "false":
		o.State = grpc.ConnTransientFailure
		return o, nil
	}
	st, err := grpc.ParseConnectivity(rhs)
	if err != nil || st == grpc.ConnNone {
		return o, fmt.Errorf("%s %q: %q is not yes, no, READY, IDLE, CONNECTING or TRANSIENT_FAILURE", option.Ready, spec, rhs)
	}
	o.State = st
	return o, nil
}

// Build answers as a proxyless gRPC client would (xDS client, gRFC A27): the
// priority gRPC uses carries healthy_load 100 and the others 0, localities
// and host shares follow gRPC's policies, aggregate clusters are flattened
// into one priority list (gRFC A37/A74/A75), and notes say where gRPC
// ignores a setting or NACKs the config.
func Build(c *config.Config, clusters []*config.Cluster, opt GRPCOptions) (*traffic.Report, error) {
	for _, o := range opt.SetHealth {
		if c.Cluster(o.Cluster) == nil {
			return nil, fmt.Errorf("%s %s: no such cluster", option.SetHealth, o.Spec)
		}
	}
	for _, o := range opt.Ready {
		if c.Cluster(o.Cluster) == nil {
			return nil, fmt.Errorf("%s %s: no such cluster", option.Ready, o.Spec)
		}
	}
	cmap, cds := grpcClusterMap(c, opt.Impl)
	nacked := model.RoutedOnlyByNACKed(c, opt.Impl)
	r := &traffic.Report{Semantics: SemanticsGRPC, Clusters: []traffic.ClusterReport{}}
	for _, cl := range clusters {
		cr, err := explainGRPCCluster(c, cl, opt, cmap, cds, nacked[cl.Name()])
		if err != nil {
			return nil, fmt.Errorf("%s: cluster %q: %w", c.Sources.Pos(cl.Proto), cl.Name(), err)
		}
		r.Clusters = append(r.Clusters, cr)
	}
	return r, nil
}

func explainGRPCCluster(c *config.Config, cl *config.Cluster, opt GRPCOptions, cmap map[string]grpc.Cluster, cds map[string]grpcCDS, nacks []model.ListenerNACK) (traffic.ClusterReport, error) {
	v := cds[cl.Name()]
	m := model.Get(c, cl)
	cr := traffic.ClusterReport{
		Name:       cl.Name(),
		LbPolicy:   grpcPolicyName(v.policy),
		Priorities: []traffic.PriorityReport{},
		Hosts:      []traffic.HostReport{},
		Notes:      []string{},
		File:       c.Sources.Pos(cl.Proto).String(),
	}
	if v.nack != "" {
		cr.LbPolicy = m.Policy
	}
	r := grpcRun{c: c, opt: opt, cr: &cr}
	r.note("answered as %s; a priority is READY when it has a usable (HEALTHY or UNKNOWN) endpoint unless %s says otherwise", opt.Impl, option.Ready)
	if len(nacks) > 0 {
		return r.listenerNACK(cl, v.kind, nacks)
	}
	var leaves []string
	if v.kind == grpc.ClusterAggregate {
		agg, err := grpc.ResolveAggregate(cl.Name(), cmap)
		if err != nil {
			return cr, err
		}
		res := agg.Resolution(opt.Impl)
		cr.Aggregate = &traffic.AggregateReport{Clusters: []string{}, Levels: []traffic.AggregateLevel{}, ClusterLoad: []traffic.AggregateClusterLd{}}
		r.aggregateNotes(cl, m, agg, cmap)
		switch {
		case v.nack != "":
			return r.fail("%s NACKs aggregate cluster %s: %s; with no previously accepted version every RPC to it fails UNAVAILABLE", opt.Impl, cl.Name(), v.nack), nil
		case res.Failure != "":
			return r.fail("%s fails every RPC to %s with UNAVAILABLE: %s", opt.Impl, cl.Name(), res.Failure), nil
		}
		leaves = res.Leaves
		cr.Aggregate.Clusters = append(cr.Aggregate.Clusters, leaves...)
	} else {
		if v.nack != "" {
			leaf, err := grpcLeafOf(c, cl, v.kind == grpc.ClusterLogicalDNS, opt.Options)
			if err != nil {
				return cr, err
			}
			r.listHosts(leaf)
			return r.fail("%s NACKs cluster %s: %s; with no previously accepted version every RPC to it fails UNAVAILABLE", opt.Impl, cl.Name(), v.nack), nil
		}
		leaves = []string{cl.Name()}
	}
	policies := grpc.LeafPolicies(cl.Name(), leaves, cmap, opt.Impl, opt.BackwardCompat)
	var lvs []grpcLevel
	for i, name := range leaves {
		lcds := cds[name]
		leaf, err := grpcLeafOf(c, lcds.cl, lcds.kind == grpc.ClusterLogicalDNS, opt.Options)
		if err != nil {
			return cr, err
		}
		cr.Notes = append(cr.Notes, leaf.notes...)
		r.dropNote(lcds.cl)
		if lcds.servedAsEDS != "" {
			r.note("%s is a %s cluster, which gRPC NACKs (it accepts only EDS, LOGICAL_DNS and aggregate clusters); lbctl answers as if the same endpoints were served through EDS", name, lcds.servedAsEDS)
		}
		from := cds[policies[i].From]
		lvs = append(lvs, r.levels(leaf, from.policy, from.failure)...)
	}
	if err := r.route(lvs); err != nil {
		return cr, err
	}
	r.ignoredNotes(cl, leaves)
	return cr, nil
}

// listenerNACK is a cluster that only NACKed api_listeners route to: the
// client has no accepted Listener, so no RPC reaches the cluster.
func (r *grpcRun) listenerNACK(cl *config.Cluster, kind grpc.ClusterKind, nacks []model.ListenerNACK) (traffic.ClusterReport, error) {
	if kind != grpc.ClusterAggregate {
		leaf, err := grpcLeafOf(r.c, cl, kind == grpc.ClusterLogicalDNS, r.opt.Options)
		if err != nil {
			return *r.cr, err
		}
		r.listHosts(leaf)
	}
	for _, n := range nacks[:len(nacks)-1] {
		r.note("%s NACKs listener %q (%s): %s", r.opt.Impl, n.Listener, r.c.Sources.Pos(n.At), n.Reason)
	}
	n := nacks[len(nacks)-1]
	return r.fail("%s NACKs listener %q (%s): %s; %s is routed to only through NACKed listeners, so with no previously accepted version no RPC reaches it (every RPC fails UNAVAILABLE)",
		r.opt.Impl, n.Listener, r.c.Sources.Pos(n.At), n.Reason, cl.Name()), nil
}
