package explain

import (
	"errors"
	"fmt"
	"math"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/lbctl/lbctl/lbmodel"
)

// Build computes the explain report for clusters; any cluster Envoy
// rejects makes it an error naming every such cluster.
func Build(c *config.Config, clusters []*config.Cluster, opt model.Options) (*traffic.Report, error) {
	r, rejected, err := Partial(c, clusters, opt)
	if err != nil {
		return nil, err
	}
	if len(rejected) > 0 {
		return nil, JoinRejected(rejected)
	}
	return r, nil
}

// JoinRejected is one error naming every rejected cluster, a line each
// (each positioned at its field already).
func JoinRejected(rejected []*model.RejectedError) error {
	errs := make([]error, len(rejected))
	for i, re := range rejected {
		errs[i] = re
	}
	return errors.Join(errs...)
}

// Partial is Build's report of the clusters Envoy accepts, and apart, in
// input order, the ones it rejects: the overview lists both.
func Partial(c *config.Config, clusters []*config.Cluster, opt model.Options) (*traffic.Report, []*model.RejectedError, error) {
	for _, o := range opt.SetHealth {
		if c.Cluster(o.Cluster) == nil {
			return nil, nil, fmt.Errorf("%s %s: no such cluster", option.SetHealth, o.Spec)
		}
	}
	// Clusters are independent: explain them on every core, then read the
	// results in input order so the report and the first error are those
	// of a sequential run.
	results := make([]clusterResult, len(clusters))
	model.Parallel(len(clusters), func(i int) {
		res, err := model.Resolve(c, clusters[i], opt)
		var cr traffic.ClusterReport
		if err == nil {
			cr, err = explainCluster(&res, opt)
		}
		if err != nil {
			err = placed(err, res.Pos, clusters[i].Name())
		}
		results[i] = clusterResult{cr, err}
	})
	r := &traffic.Report{Clusters: make([]traffic.ClusterReport, 0, len(clusters))}
	var rejected []*model.RejectedError
	for i := range clusters {
		err := results[i].err
		var re *model.RejectedError
		if errors.As(err, &re) {
			rejected = append(rejected, re)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		r.Clusters = append(r.Clusters, results[i].cr)
	}
	return r, rejected, nil
}

// placed is err positioned at its cluster, unless Envoy rejects the
// cluster (a *model.RejectedError is placed already).
func placed(err error, pos config.Pos, name string) error {
	var re *model.RejectedError
	if errors.As(err, &re) {
		return err
	}
	return fmt.Errorf("%s: cluster %q: %w", pos, name, err)
}

type clusterResult struct {
	cr  traffic.ClusterReport
	err error // positioned at the cluster, unless a *model.RejectedError
}

// explainCluster is r's report, built from r alone.
func explainCluster(r *model.Result, opt model.Options) (traffic.ClusterReport, error) {
	cl, m, s := r.Cluster, r.Model, r.Settings
	cr := traffic.ClusterReport{
		Name:                   m.Name,
		LbPolicy:               m.Policy,
		OverprovisioningFactor: m.OverprovisioningFactor,
		PanicThreshold:         m.PanicThreshold,
		Priorities:             []traffic.PriorityReport{},
		Hosts:                  []traffic.HostReport{},
		Notes:                  r.Notes,
		File:                   r.Pos.String(),
		EndpointsMissing:       len(m.Hosts) == 0 && edsUnloaded(cl),
		HostsFromLiveHealth:    m.HostsFromLive,
	}
	if m.IsAggregate {
		return explainAggregate(r, cr, opt)
	}
	if t := model.PerRequestHosts(cl.Proto); t != "" {
		cr.PerRequestHosts = t
		cr.Notes = append(cr.Notes, subsetNotes(r)...)
		cr.Notes = append(cr.Notes, perRequestNote(cl, m.Name, t))
		return cr, nil
	}
	in, hostLB := r.Input, r.HostLB
	shares, err := lbmodel.ClusterShares(in)
	if err != nil {
		return cr, err
	}
	levels := m.Levels()
	cr.NormalizedTotalAvailability = shares.Load.NormalizedTotalAvailability
	cr.TotalPanic = shares.Load.TotalPanic
	cr.NoHostShare = CleanShare(shares.NoHost)
	for p, l := range levels {
		ll := shares.Load.Levels[p]
		pr := traffic.PriorityReport{
			Priority: p, Hosts: l.Hosts, Healthy: l.Healthy, Degraded: l.Degraded, Excluded: l.Excluded,
			Health: ll.Health, DegradedAvailability: ll.DegradedAvailability, Panic: ll.Panic,
			HealthyLoad: ll.HealthyLoad, DegradedLoad: ll.DegradedLoad,
		}
		if s.LocalityWeighted || in.HasLocalCluster {
			pr.Localities = localityReports(shares, p)
		}
		cr.Priorities = append(cr.Priorities, pr)
	}
	cr.Hosts = hostReports("", m.Hosts, shares.Hosts, hostLB)
	if shares.Zone != nil {
		cr.ZoneRouting = zoneReport(shares.Zone)
	}
	cr.Notes = append(cr.Notes, clusterNotes(r, shares, opt)...)
	// The budgets reuse this model and input (and its tables).
	return cr, addBudgets(in, opt, &cr)
}

func localityReports(shares lbmodel.Shares, p int) []traffic.LocalityReport {
	for _, ps := range shares.Priorities {
		if ps.Priority != p {
			continue
		}
		out := []traffic.LocalityReport{}
		for _, l := range ps.Localities {
			out = append(out, traffic.LocalityReport{
				Region: l.Locality.Region, Zone: l.Locality.Zone, SubZone: l.Locality.SubZone,
				Weight: l.Weight, Hosts: l.Hosts, Healthy: l.Healthy, Degraded: l.Degraded,
				EffectiveWeight: lbmodel.CleanFloat(l.EffectiveWeight), Share: CleanShare(l.Share),
			})
		}
		return out
	}
	return nil
}

func zoneReport(z *lbmodel.ZoneRouting) *traffic.ZoneRoutingReport {
	zr := &traffic.ZoneRoutingReport{State: z.State.String(), Localities: []traffic.ZoneLocalityReport{}, Reason: z.Exit.String()}
	if len(z.LocalPercent) > 0 {
		zr.LocalPercent = z.LocalPercentToRoute
		if z.State == lbmodel.LocalityDirect {
			zr.LocalPercent = 10000
		}
	}
	for i, l := range z.Localities {
		share := 0.0
		if i < len(z.Shares) {
			share = z.Shares[i]
		}
		zr.Localities = append(zr.Localities, traffic.ZoneLocalityReport{Region: l.Region, Zone: l.Zone, SubZone: l.SubZone, Share: CleanShare(share)})
	}
	return zr
}

func hostReports(cluster string, hosts []lbmodel.Host, shares []float64, lb *model.HostPolicy) []traffic.HostReport {
	// Ordered by share first, then built in that order: sorting the
	// reports themselves moved every large row log n times.
	keys := make([]shareKey, len(hosts))
	var clean cleanCache // hosts often share few distinct values
	for i := range hosts {
		keys[i] = shareKey{i: int32(i)}
		if lb.Computable && i < len(shares) {
			keys[i].share, keys[i].has = clean.share(shares[i]), true
		}
	}
	sortByShare(keys)
	out := make([]traffic.HostReport, len(hosts))
	var values []float64 // one block for the Share pointers, not one allocation per host
	if lb.Computable {
		values = make([]float64, len(hosts))
	}
	for k, key := range keys {
		h := &hosts[key.i]
		out[k] = traffic.HostReport{
			Cluster: cluster, Address: h.Address, Hostname: h.Hostname, Priority: h.Priority,
			Region: h.Locality.Region, Zone: h.Locality.Zone, SubZone: h.Locality.SubZone,
			Health: h.Status.String(), Weight: max(1, h.Weight),
		}
		if key.has {
			values[k] = key.share
			out[k].Share = &values[k]
		}
	}
	return out
}

// cleanCache remembers the last CleanShare of 64 raw values, slotted by
// their bits: round robin gives every host of a weight one share, a ring
// gives nearly every host its own (where a map would only cost).
type cleanCache [64]struct {
	raw, clean float64
	ok         bool
}

func (c *cleanCache) share(v float64) float64 {
	e := &c[math.Float64bits(v)*0x9E3779B97F4A7C15>>58]
	if !e.ok || math.Float64bits(e.raw) != math.Float64bits(v) {
		e.raw, e.clean, e.ok = v, CleanShare(v), true
	}
	return e.clean
}

func explainAggregate(r *model.Result, cr traffic.ClusterReport, opt model.Options) (traffic.ClusterReport, error) {
	m := r.Model
	ar := &traffic.AggregateReport{Clusters: append([]string{}, m.Aggregate...), Levels: []traffic.AggregateLevel{}, ClusterLoad: []traffic.AggregateClusterLd{}}
	children := make([]lbmodel.AggregateChildInput, len(m.Aggregate))
	childModels := map[string]*model.Model{}
	childLB := map[string]*model.HostPolicy{}
	for i, ch := range r.Children {
		children[i] = lbmodel.AggregateChildInput{Name: ch.Name, Kind: ch.Kind}
		if ch.Result == nil {
			continue
		}
		cr.Notes = append(cr.Notes, ch.Notes...)
		children[i].Cluster = ch.Input
		childModels[ch.Name], childLB[ch.Name] = ch.Model, ch.HostLB
	}
	as, err := lbmodel.ComputeAggregateShares(children, m.PanicThreshold)
	if err != nil {
		return cr, err
	}
	if len(as.Load.Levels) == 0 {
		// No child has hosts; when that is because their EDS resources
		// are not in the input, say so rather than report an outage.
		for _, ch := range r.Children {
			if ch.EDSUnloaded {
				cr.EndpointsMissing = true
			}
		}
	}
	cr.NormalizedTotalAvailability = as.Load.Load.NormalizedTotalAvailability
	cr.TotalPanic = as.Load.Load.TotalPanic
	cr.NoHostShare = CleanShare(as.NoHost)
	ar.TotalPanic = cr.TotalPanic
	childPanic := map[string][]bool{}
	for _, ch := range as.Children {
		childPanic[ch.Name] = ch.LevelPanic
	}
	for i, l := range as.Load.Levels {
		ll := as.Load.Load.Levels[i]
		al := traffic.AggregateLevel{Cluster: l.Cluster, Priority: l.Priority, Health: ll.Health,
			HealthyLoad: ll.HealthyLoad, DegradedLoad: ll.DegradedLoad, Panic: ll.Panic}
		if cp := childPanic[l.Cluster]; l.Priority < len(cp) {
			al.ChildPanic = cp[l.Priority]
		}
		ar.Levels = append(ar.Levels, al)
	}
	for _, cl := range as.Load.ClusterLoad {
		ar.ClusterLoad = append(ar.ClusterLoad, traffic.AggregateClusterLd{Cluster: cl.Cluster, Load: cl.Load})
	}
	var hosts []traffic.HostReport
	for _, ch := range as.Children {
		hosts = append(hosts, hostReports(ch.Name, childModels[ch.Name].Hosts, ch.Hosts, childLB[ch.Name])...)
	}
	keys := make([]shareKey, len(hosts))
	for i, h := range hosts {
		keys[i] = shareKey{i: int32(i), has: h.Share != nil}
		if h.Share != nil {
			keys[i].share = *h.Share
		}
	}
	sortByShare(keys)
	for _, k := range keys {
		cr.Hosts = append(cr.Hosts, hosts[k.i])
	}
	cr.Aggregate = ar
	cr.Notes = append(cr.Notes, aggregateNotes(r, as, childLB)...)
	// The budgets reuse the children's inputs built above.
	addAggregateBudgets(m, children, opt, &cr)
	return cr, nil
}

// CleanShare is lbmodel.CleanFraction: shares without float artefacts.
func CleanShare(v float64) float64 { return lbmodel.CleanFraction(v) }
