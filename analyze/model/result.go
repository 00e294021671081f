package model

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
)

// Result is one cluster as a report sees it, resolved from the config in
// one pass: its model with the what-ifs applied, its settings and
// position, its input, and the config facts its notes read. A report
// works on it rather than asking the config piece by piece.
type Result struct {
	Cluster  *config.Cluster
	Model    *Model
	Notes    []string // what the what-ifs changed
	Settings LBSettings
	Pos      config.Pos

	// Input and HostLB are set for a cluster whose hosts are known ahead
	// of requests (neither aggregate nor per-request).
	Input  lbmodel.ClusterInput
	HostLB *HostPolicy

	// Set for such a cluster too: the facts its notes read.
	Routes         []config.RouteTarget // routes to it; only when a note reads them
	Subset         *SubsetSetup
	SubsetProblems config.Problems
	SubsetHosts    []lbmodel.Host // the memoized hosts, before what-ifs
	Local          Local

	// Children are an aggregate's listed clusters, in order.
	Children []Child
}

// Local is what the config says of this Envoy's own place.
type Local struct {
	Cluster        string // local cluster name, "" when none
	ClusterDefined bool
	Locality       *lbmodel.Locality // --zone or node.locality
	LocalityKnown  bool
	HasBootstrap   bool
}

// Child is one listed cluster of an aggregate; Result is nil unless Kind
// is lbmodel.ChildPresent.
type Child struct {
	Name        string
	Kind        lbmodel.ChildKind
	EDSUnloaded bool // an EDS cluster whose endpoints are not in the input
	*Result
}

// Resolve is cl's Result: the one place a report reads the config for a
// cluster. Errors come in the order a report meets them. A value: one
// per cluster of a 10k-cluster dump stays off the heap.
func Resolve(c *config.Config, cl *config.Cluster, opt Options) (Result, error) {
	m, notes, err := With(c, cl, opt)
	if err != nil {
		return Result{}, err
	}
	r := Result{Cluster: cl, Model: m, Notes: notes, Settings: Settings(c, cl), Pos: c.Sources.Pos(cl.Proto)}
	if m.IsAggregate {
		err := r.children(c, opt)
		return r, err
	}
	r.Subset, r.SubsetProblems = Subset(c, cl)
	if r.Subset != nil && r.Subset.Config.Enabled() {
		r.SubsetHosts = Get(c, cl).Hosts
	}
	if r.Subset != nil && r.Subset.Config.Enabled() || !IsHashPolicy(m.Policy) {
		r.Routes = c.RoutesTo(cl.Name())
	}
	if PerRequestHosts(cl.Proto) != "" {
		return r, nil
	}
	r.Input, r.HostLB, err = Input(c, cl, m, r.Settings, opt)
	if err != nil {
		return r, err
	}
	name := LocalClusterName(c, opt)
	_, known := NodeLocality(c, opt)
	r.Local = Local{Cluster: name, ClusterDefined: name != "" && c.Cluster(name) != nil,
		Locality: LocalLocality(c, opt), LocalityKnown: known, HasBootstrap: len(c.Bootstraps) > 0}
	return r, nil
}

func (r *Result) children(c *config.Config, opt Options) error {
	r.Children = make([]Child, len(r.Model.Aggregate))
	for i, name := range r.Model.Aggregate {
		ch := &r.Children[i]
		ch.Name = name
		ccl := c.Cluster(name)
		ch.EDSUnloaded = ccl != nil && ccl.Proto.GetType().String() == "EDS" && ccl.Assignment == nil
		switch {
		case ccl == nil:
			ch.Kind = lbmodel.ChildMissing
			continue
		case IsAggregate(ccl):
			ch.Kind = lbmodel.ChildAggregate
			continue
		}
		cm, notes, err := With(c, ccl, opt)
		if err != nil {
			return err
		}
		cr := &Result{Cluster: ccl, Model: cm, Notes: notes, Settings: Settings(c, ccl)}
		cr.Input, cr.HostLB, err = Input(c, ccl, cm, cr.Settings, opt)
		if err != nil {
			return fmt.Errorf("child %q: %w", name, err)
		}
		ch.Result = cr
	}
	return nil
}
