package analyze

import (
	"fmt"
	"sort"

	"github.com/lbctl/lbctl/lbmodel"
)

// Report is `lbctl explain`'s result; field names are the contract's.
type Report struct {
	Semantics string          `json:"semantics,omitempty" yaml:"semantics,omitempty"`
	Clusters  []ClusterReport `json:"clusters" yaml:"clusters"`
}

// ClusterReport is the complete load-balancing picture of one cluster.
type ClusterReport struct {
	Name                        string           `json:"name" yaml:"name"`
	LbPolicy                    string           `json:"lb_policy" yaml:"lb_policy"`
	OverprovisioningFactor      uint32           `json:"overprovisioning_factor" yaml:"overprovisioning_factor"`
	PanicThreshold              int              `json:"panic_threshold" yaml:"panic_threshold"`
	NormalizedTotalAvailability int              `json:"normalized_total_availability" yaml:"normalized_total_availability"`
	TotalPanic                  bool             `json:"total_panic" yaml:"total_panic"`
	Priorities                  []PriorityReport `json:"priorities" yaml:"priorities"`
	Hosts                       []HostReport     `json:"hosts" yaml:"hosts"`
	// NoHostShare is the fraction of requests for which Envoy finds no host
	// (e.g. fail_traffic_on_panic, or nothing to send to).
	NoHostShare float64            `json:"no_host_share" yaml:"no_host_share"`
	Aggregate   *AggregateReport   `json:"aggregate,omitempty" yaml:"aggregate,omitempty"`
	ZoneRouting *ZoneRoutingReport `json:"zone_routing,omitempty" yaml:"zone_routing,omitempty"`
	Notes       []string           `json:"notes" yaml:"notes"`
	// File is where the cluster is defined (file:line:col).
	File string `json:"file,omitempty" yaml:"file,omitempty"`
}

// PriorityReport is one priority level.
type PriorityReport struct {
	Priority             int              `json:"priority" yaml:"priority"`
	Hosts                int              `json:"hosts" yaml:"hosts"`
	Healthy              int              `json:"healthy" yaml:"healthy"`
	Degraded             int              `json:"degraded" yaml:"degraded"`
	Excluded             int              `json:"excluded" yaml:"excluded"`
	Health               int              `json:"health" yaml:"health"`
	DegradedAvailability int              `json:"degraded_availability" yaml:"degraded_availability"`
	Panic                bool             `json:"panic" yaml:"panic"`
	HealthyLoad          int              `json:"healthy_load" yaml:"healthy_load"`
	DegradedLoad         int              `json:"degraded_load" yaml:"degraded_load"`
	Localities           []LocalityReport `json:"localities,omitempty" yaml:"localities,omitempty"`
}

// LocalityReport is one locality of a priority.
type LocalityReport struct {
	Region          string  `json:"region" yaml:"region"`
	Zone            string  `json:"zone" yaml:"zone"`
	SubZone         string  `json:"sub_zone" yaml:"sub_zone"`
	Weight          uint32  `json:"weight" yaml:"weight"`
	Hosts           int     `json:"hosts" yaml:"hosts"`
	Healthy         int     `json:"healthy" yaml:"healthy"`
	Degraded        int     `json:"degraded" yaml:"degraded"`
	EffectiveWeight float64 `json:"effective_weight" yaml:"effective_weight"`
	Share           float64 `json:"share" yaml:"share"`
}

// HostReport is one host and its share of the cluster's traffic.
type HostReport struct {
	// Cluster is the child cluster owning the host (aggregate clusters only).
	Cluster  string `json:"cluster,omitempty" yaml:"cluster,omitempty"`
	Address  string `json:"address" yaml:"address"`
	Hostname string `json:"hostname" yaml:"hostname"`
	Priority int    `json:"priority" yaml:"priority"`
	Region   string `json:"region" yaml:"region"`
	Zone     string `json:"zone" yaml:"zone"`
	SubZone  string `json:"sub_zone" yaml:"sub_zone"`
	Health   string `json:"health" yaml:"health"`
	Weight   uint32 `json:"weight" yaml:"weight"`
	// Share is nil where lbctl cannot compute it (see the notes).
	Share *float64 `json:"share" yaml:"share"`
}

// AggregateReport is an aggregate cluster's top tier.
type AggregateReport struct {
	Clusters    []string             `json:"clusters" yaml:"clusters"`
	Levels      []AggregateLevel     `json:"levels" yaml:"levels"`
	ClusterLoad []AggregateClusterLd `json:"cluster_load" yaml:"cluster_load"`
	TotalPanic  bool                 `json:"total_panic" yaml:"total_panic"`
}

// AggregateLevel is one linearized level.
type AggregateLevel struct {
	Cluster      string `json:"cluster" yaml:"cluster"`
	Priority     int    `json:"priority" yaml:"priority"`
	Health       int    `json:"health" yaml:"health"`
	HealthyLoad  int    `json:"healthy_load" yaml:"healthy_load"`
	DegradedLoad int    `json:"degraded_load" yaml:"degraded_load"`
	Panic        bool   `json:"panic" yaml:"panic"`
	// ChildPanic is the child cluster's own panic flag for this priority,
	// which decides whether the child uses all hosts of the level.
	ChildPanic bool `json:"child_panic" yaml:"child_panic"`
}

// AggregateClusterLd is a child cluster's share of the aggregate's traffic.
type AggregateClusterLd struct {
	Cluster string `json:"cluster" yaml:"cluster"`
	Load    int    `json:"load" yaml:"load"`
}

// ZoneRoutingReport is zone-aware routing's state for priority 0.
type ZoneRoutingReport struct {
	State        string               `json:"state" yaml:"state"`
	LocalPercent uint64               `json:"local_percent" yaml:"local_percent"`
	Localities   []ZoneLocalityReport `json:"localities" yaml:"localities"`
	Reason       string               `json:"reason,omitempty" yaml:"reason,omitempty"`
}

// ZoneLocalityReport is an upstream locality's share of zone-routed requests.
type ZoneLocalityReport struct {
	Region  string  `json:"region" yaml:"region"`
	Zone    string  `json:"zone" yaml:"zone"`
	SubZone string  `json:"sub_zone" yaml:"sub_zone"`
	Share   float64 `json:"share" yaml:"share"`
}

// ExplainOptions are explain's what-if and context inputs.
type ExplainOptions struct {
	// LocalCluster overrides cluster_manager.local_cluster_name.
	LocalCluster string
	// Zone overrides the bootstrap's node.locality.
	Zone *lbmodel.Locality
	// ActiveRequests is rq_active by host address, for least request.
	ActiveRequests map[string]uint64
	// SetHealth rewrites host health before computing.
	SetHealth []HealthOverride
}

// Explain computes the report for clusters.
func (c *Config) Explain(clusters []*Cluster, opt ExplainOptions) (*Report, error) {
	for _, o := range opt.SetHealth {
		if c.Cluster(o.Cluster) == nil {
			return nil, fmt.Errorf("--set-health %s: no such cluster", o.Spec)
		}
	}
	r := &Report{Clusters: []ClusterReport{}}
	for _, cl := range clusters {
		cr, err := c.explainCluster(cl, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: cluster %q: %w", c.Sources.Pos(cl.Proto), cl.Name(), err)
		}
		r.Clusters = append(r.Clusters, cr)
	}
	return r, nil
}

// model returns cl's model with --set-health applied.
func (c *Config) modelWith(cl *Cluster, opt ExplainOptions) (*Model, []string, error) {
	m := c.Model(cl)
	var notes []string
	for _, o := range opt.SetHealth {
		if o.Cluster != m.Name {
			continue
		}
		n, err := o.apply(m.Hosts)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, n)
	}
	return m, notes, nil
}

func (c *Config) explainCluster(cl *Cluster, opt ExplainOptions) (ClusterReport, error) {
	m, notes, err := c.modelWith(cl, opt)
	if err != nil {
		return ClusterReport{}, err
	}
	s := c.Settings(cl)
	cr := ClusterReport{
		Name:                   m.Name,
		LbPolicy:               m.Policy,
		OverprovisioningFactor: m.OverprovisioningFactor,
		PanicThreshold:         m.PanicThreshold,
		Priorities:             []PriorityReport{},
		Hosts:                  []HostReport{},
		Notes:                  notes,
		File:                   c.Sources.Pos(cl.Proto).String(),
	}
	if m.IsAggregate {
		return c.explainAggregate(cr, m, opt)
	}
	in, hostLB, err := c.clusterInput(cl, m, s, opt)
	if err != nil {
		return cr, err
	}
	shares, err := lbmodel.ClusterShares(in)
	if err != nil {
		return cr, err
	}
	levels := m.Levels()
	cr.NormalizedTotalAvailability = shares.Load.NormalizedTotalAvailability
	cr.TotalPanic = shares.Load.TotalPanic
	cr.NoHostShare = shares.NoHost
	for p, l := range levels {
		ll := shares.Load.Levels[p]
		pr := PriorityReport{
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
	cr.Notes = append(cr.Notes, c.notes(cl, m, s, in, shares, hostLB, opt)...)
	return cr, nil
}

func localityReports(shares lbmodel.Shares, p int) []LocalityReport {
	for _, ps := range shares.Priorities {
		if ps.Priority != p {
			continue
		}
		out := []LocalityReport{}
		for _, l := range ps.Localities {
			out = append(out, LocalityReport{
				Region: l.Locality.Region, Zone: l.Locality.Zone, SubZone: l.Locality.SubZone,
				Weight: l.Weight, Hosts: l.Hosts, Healthy: l.Healthy, Degraded: l.Degraded,
				EffectiveWeight: l.EffectiveWeight, Share: l.Share,
			})
		}
		return out
	}
	return nil
}

func zoneReport(z *lbmodel.ZoneRouting) *ZoneRoutingReport {
	zr := &ZoneRoutingReport{State: z.State.String(), Localities: []ZoneLocalityReport{}, Reason: z.Exit.String()}
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
		zr.Localities = append(zr.Localities, ZoneLocalityReport{Region: l.Region, Zone: l.Zone, SubZone: l.SubZone, Share: share})
	}
	return zr
}

func hostReports(cluster string, hosts []lbmodel.Host, shares []float64, lb *hostPolicy) []HostReport {
	out := make([]HostReport, len(hosts))
	for i, h := range hosts {
		out[i] = HostReport{
			Cluster: cluster, Address: h.Address, Hostname: h.Hostname, Priority: h.Priority,
			Region: h.Locality.Region, Zone: h.Locality.Zone, SubZone: h.Locality.SubZone,
			Health: h.Status.String(), Weight: max(1, h.Weight),
		}
		if lb.computable && i < len(shares) {
			v := shares[i]
			out[i].Share = &v
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Share, out[j].Share
		if a == nil || b == nil {
			return a != nil && b == nil
		}
		return *a > *b
	})
	return out
}

func (c *Config) explainAggregate(cr ClusterReport, m *Model, opt ExplainOptions) (ClusterReport, error) {
	ar := &AggregateReport{Clusters: append([]string{}, m.Aggregate...), Levels: []AggregateLevel{}, ClusterLoad: []AggregateClusterLd{}}
	children := make([]lbmodel.AggregateChildInput, len(m.Aggregate))
	childModels := map[string]*Model{}
	childLB := map[string]*hostPolicy{}
	for i, name := range m.Aggregate {
		children[i] = lbmodel.AggregateChildInput{Name: name}
		ccl := c.Cluster(name)
		switch {
		case ccl == nil:
			children[i].Kind = lbmodel.ChildMissing
			continue
		case c.Model(ccl).IsAggregate:
			children[i].Kind = lbmodel.ChildAggregate
			continue
		}
		cm, notes, err := c.modelWith(ccl, opt)
		if err != nil {
			return cr, err
		}
		cr.Notes = append(cr.Notes, notes...)
		in, lb, err := c.clusterInput(ccl, cm, c.Settings(ccl), opt)
		if err != nil {
			return cr, fmt.Errorf("child %q: %w", name, err)
		}
		children[i].Cluster = in
		childModels[name], childLB[name] = cm, lb
	}
	as, err := lbmodel.ComputeAggregateShares(children, m.PanicThreshold)
	if err != nil {
		return cr, err
	}
	cr.NormalizedTotalAvailability = as.Load.Load.NormalizedTotalAvailability
	cr.TotalPanic = as.Load.Load.TotalPanic
	cr.NoHostShare = as.NoHost
	ar.TotalPanic = cr.TotalPanic
	childPanic := map[string][]bool{}
	for _, ch := range as.Children {
		childPanic[ch.Name] = ch.LevelPanic
	}
	for i, l := range as.Load.Levels {
		ll := as.Load.Load.Levels[i]
		al := AggregateLevel{Cluster: l.Cluster, Priority: l.Priority, Health: ll.Health,
			HealthyLoad: ll.HealthyLoad, DegradedLoad: ll.DegradedLoad, Panic: ll.Panic}
		if cp := childPanic[l.Cluster]; l.Priority < len(cp) {
			al.ChildPanic = cp[l.Priority]
		}
		ar.Levels = append(ar.Levels, al)
	}
	for _, cl := range as.Load.ClusterLoad {
		ar.ClusterLoad = append(ar.ClusterLoad, AggregateClusterLd{Cluster: cl.Cluster, Load: cl.Load})
	}
	for _, ch := range as.Children {
		cr.Hosts = append(cr.Hosts, hostReports(ch.Name, childModels[ch.Name].Hosts, ch.Hosts, childLB[ch.Name])...)
	}
	sort.SliceStable(cr.Hosts, func(i, j int) bool {
		a, b := cr.Hosts[i].Share, cr.Hosts[j].Share
		if a == nil || b == nil {
			return a != nil && b == nil
		}
		return *a > *b
	})
	cr.Aggregate = ar
	cr.Notes = append(cr.Notes, c.aggregateNotes(m, as, childLB)...)
	return cr, nil
}
