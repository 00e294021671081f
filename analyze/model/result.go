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
	SubsetModel    *Model // the memoized model the subset LB is built over, before what-ifs
	Local          Local

	// Children are an aggregate's listed clusters, in order.
	Children []Child
}

// Child is one listed cluster of an aggregate; Result is nil unless Kind
// is lbmodel.ChildPresent.
type Child struct {
	Name        string
	Kind        lbmodel.ChildKind
	EDSUnloaded bool // an EDS cluster whose endpoints are not in the input
	*Result
	entry *Entry
}

// Resolve is cl's Result: the one place a report reads the config for a
// cluster. Errors come in the order a report meets them. A value: one
// per cluster of a 10k-cluster dump stays off the heap. Pos is set even
// with an error, which it places.
func Resolve(c *config.Config, cl *config.Cluster, opt Options) (Result, error) {
	r := Result{Cluster: cl}
	local := LocalOf(c, opt)
	own := r.lookup(c)
	r.Pos = own.Settings.Pos.Cluster
	// The cluster, then an aggregate's listed clusters, each resolved
	// alike from its entry.
	for i := -1; i < len(r.Children); i++ {
		res, e := &r, own
		if i >= 0 {
			if res, e = r.Children[i].Result, r.Children[i].entry; res == nil {
				continue
			}
		}
		m, notes, err := e.With(opt)
		if err != nil {
			return Result{Pos: r.Pos}, err
		}
		res.Model, res.Notes, res.Settings = m, notes, e.Settings
		if i < 0 {
			if m.IsAggregate {
				continue
			}
			r.Subset, r.SubsetProblems = e.Subset, e.SubsetProblems
			if r.Subset != nil && r.Subset.Config.Enabled() {
				r.SubsetModel = e.Model
			}
			if PerRequestHosts(cl.Proto) != "" {
				break
			}
		}
		res.Input, res.HostLB, err = Input(res.Cluster, m, res.Settings, local, opt)
		if err != nil && i >= 0 {
			return r, fmt.Errorf("child %q: %w", res.Cluster.Name(), err)
		}
		if err != nil {
			return r, err
		}
		if i < 0 {
			r.Local = local
		}
	}
	if r.Subset != nil && r.Subset.Config.Enabled() || !r.Model.IsAggregate && !IsHashPolicy(r.Model.Policy) {
		r.Routes = c.RoutesTo(cl.Name())
	}
	return r, nil
}

// lookup is r's cluster's entry; for an aggregate it sets r.Children,
// each present child with its entry.
func (r *Result) lookup(c *config.Config) *Entry {
	own := Lookup(c, r.Cluster)
	if !own.Model.IsAggregate {
		return own
	}
	names := own.Model.Aggregate
	r.Children = make([]Child, len(names))
	for i, name := range names {
		ch := &r.Children[i]
		ch.Name = name
		ccl := c.Cluster(name)
		ch.EDSUnloaded = ccl != nil && ccl.Proto.GetType().String() == "EDS" && ccl.Assignment == nil
		switch {
		case ccl == nil:
			ch.Kind = lbmodel.ChildMissing
		case IsAggregate(ccl):
			ch.Kind = lbmodel.ChildAggregate
		default:
			ch.Result, ch.entry = &Result{Cluster: ccl}, Lookup(c, ccl)
		}
	}
	return own
}
