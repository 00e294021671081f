package proxyless

import (
	"fmt"
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// grpcRun builds one cluster's gRPC report.
type grpcRun struct {
	c   *config.Config
	opt GRPCOptions
	cr  *traffic.ClusterReport
}

func (r *grpcRun) note(format string, args ...any) {
	r.cr.Notes = append(r.cr.Notes, fmt.Sprintf(format, args...))
}

// fail ends the report of a cluster every RPC to which fails.
func (r *grpcRun) fail(format string, args ...any) traffic.ClusterReport {
	r.note(format, args...)
	r.cr.NoHostShare = 1
	sortHosts(r.cr.Hosts)
	return *r.cr
}

// grpcLevel is one child of gRPC's priority policy: one priority of one
// leaf cluster, in the flattened order (grpc.md §2.2).
type grpcLevel struct {
	leaf     *grpcLeaf
	priority int
	hosts    []int // indexes into leaf.hosts
	usable   int
	policy   grpc.Policy
	failure  string // the leaf's balancer fails (grpc-go deferred ring error)
}

// levels turns a leaf into priority children. An EDS resource gRPC NACKs,
// or one with no weighted locality, gives one empty priority that reports
// TRANSIENT_FAILURE at once.
func (r *grpcRun) levels(l *grpcLeaf, p grpc.Policy, failure string) []grpcLevel {
	if l.nack != "" {
		r.note("%s rejects the endpoints of %s (EDS NACK): %s; the cluster contributes one empty priority that fails at once", r.opt.Impl, l.name, l.nack)
		return []grpcLevel{{leaf: l, policy: p, failure: failure}}
	}
	if l.priorities == 0 {
		if len(l.hosts) > 0 {
			r.note("no locality of %s has a load_balancing_weight: gRPC drops every locality while parsing EDS, so the cluster has no endpoint and RPCs to it fail (set load_balancing_weight on each locality)", l.name)
		}
		return []grpcLevel{{leaf: l, policy: p, failure: failure}}
	}
	var out []grpcLevel
	for prio := 0; prio < l.priorities; prio++ {
		lv := grpcLevel{leaf: l, priority: prio, hosts: l.level(prio), policy: p, failure: failure}
		for _, i := range lv.hosts {
			h := l.hosts[i]
			if h.LocalityWeight > 0 && grpc.KeepsEndpoint(h.Status) {
				lv.usable++
			}
		}
		out = append(out, lv)
	}
	return out
}

func (lv grpcLevel) name() string { return fmt.Sprintf("%s/priority-%d", lv.leaf.name, lv.priority) }

// route runs the priority policy over the levels and fills the report.
func (r *grpcRun) route(lvs []grpcLevel) error {
	children := make([]grpc.PriorityChild, len(lvs))
	for i, lv := range lvs {
		children[i] = grpc.PriorityChild{Name: lv.name(), Usable: lv.usable}
		if lv.failure != "" {
			children[i].State = grpc.ConnTransientFailure
		}
		for _, o := range r.opt.Ready {
			if o.Cluster != lv.leaf.name || (o.Priority >= 0 && o.Priority != lv.priority) {
				continue
			}
			if (o.State == grpc.ConnReady || o.State == grpc.ConnIdle) && lv.usable == 0 {
				return fmt.Errorf("%s %s: %s has no usable endpoint, so it cannot be %s", option.Ready, o.Spec, lv.name(), o.State)
			}
			children[i].State = o.State
		}
	}
	choice := grpc.ChoosePriority(children, r.opt.Impl)
	for _, lv := range lvs {
		if lv.failure != "" {
			r.note("%s: its ring hash config fails when the balancer starts (%s): the cluster's priorities report TRANSIENT_FAILURE", lv.leaf.name, lv.failure)
		}
	}
	r.note("%s", choice.Reason)
	switch choice.State {
	case grpc.ConnConnecting:
		r.note("the chosen priority is CONNECTING: RPCs queue until it connects (or fail at their deadline)")
	case grpc.ConnTransientFailure:
		r.note("the chosen priority is in TRANSIENT_FAILURE: every RPC fails UNAVAILABLE (wait_for_ready RPCs wait)")
		r.cr.NoHostShare = 1
	}
	shares := map[*grpcLeaf][]float64{}
	for i, lv := range lvs {
		load := 0
		if i < len(choice.Load.Levels) {
			load = choice.Load.Levels[i].HealthyLoad
		}
		gs := grpc.Shares{Hosts: make([]grpc.HostShare, len(lv.hosts))}
		if lv.failure == "" {
			var err error
			if gs, err = grpc.PriorityShares(subset(lv.leaf.hosts, lv.hosts), lv.policy); err != nil {
				return fmt.Errorf("%s: %w", lv.name(), err)
			}
		}
		serving := i == choice.Chosen && choice.State != grpc.ConnTransientFailure
		if shares[lv.leaf] == nil {
			shares[lv.leaf] = make([]float64, len(lv.leaf.hosts))
		}
		if serving {
			for j, hi := range lv.hosts {
				shares[lv.leaf][hi] = gs.Hosts[j].Share
			}
			for _, n := range gs.Notes {
				r.note("%s: %s", lv.name(), n)
			}
			if gs.RingSize > 0 {
				r.note("%s: ring hash ring of %d entries (min %d, max %d after gRPC's 4096 cap)", lv.name(), gs.RingSize, lv.policy.MinRingSize, lv.policy.MaxRingSize)
			}
		}
		r.addLevel(lv, load, gs)
	}
	seen := map[*grpcLeaf]bool{}
	for _, lv := range lvs {
		if !seen[lv.leaf] {
			seen[lv.leaf] = true
			r.listHostsShares(lv.leaf, shares[lv.leaf])
		}
	}
	sortHosts(r.cr.Hosts)
	return nil
}

func subset(hosts []lbmodel.Host, idx []int) []lbmodel.Host {
	out := make([]lbmodel.Host, len(idx))
	for j, i := range idx {
		out[j] = hosts[i]
	}
	return out
}

// addLevel reports one level: as a priority of a plain cluster, or as an
// aggregate level plus its leaf's cluster_load.
func (r *grpcRun) addLevel(lv grpcLevel, load int, gs grpc.Shares) {
	if a := r.cr.Aggregate; a != nil {
		a.Levels = append(a.Levels, traffic.AggregateLevel{Cluster: lv.leaf.name, Priority: lv.priority, HealthyLoad: load})
		n := len(a.ClusterLoad)
		if n > 0 && a.ClusterLoad[n-1].Cluster == lv.leaf.name {
			a.ClusterLoad[n-1].Load += load
		} else {
			a.ClusterLoad = append(a.ClusterLoad, traffic.AggregateClusterLd{Cluster: lv.leaf.name, Load: load})
		}
		return
	}
	pr := traffic.PriorityReport{Priority: lv.priority, Hosts: len(lv.hosts), Healthy: lv.usable, HealthyLoad: load}
	for _, i := range lv.hosts {
		switch lv.leaf.hosts[i].Status {
		case lbmodel.StatusDegraded:
			pr.Degraded++
		case lbmodel.StatusDraining:
			pr.Excluded++
		}
	}
	if lv.policy.LocalityLevel() {
		pr.Localities = []traffic.LocalityReport{}
		for _, ls := range gs.Localities {
			lr := traffic.LocalityReport{Region: ls.Locality.Region, Zone: ls.Locality.Zone, SubZone: ls.Locality.SubZone,
				Weight: ls.Weight, EffectiveWeight: float64(ls.Weight), Share: lbmodel.CleanFraction(ls.Share)}
			for _, i := range lv.hosts {
				h := lv.leaf.hosts[i]
				if h.Locality == ls.Locality {
					lr.Hosts++
					if grpc.KeepsEndpoint(h.Status) {
						lr.Healthy++
					}
					if h.Status == lbmodel.StatusDegraded {
						lr.Degraded++
					}
				}
			}
			pr.Localities = append(pr.Localities, lr)
		}
	}
	r.cr.Priorities = append(r.cr.Priorities, pr)
}

// listHosts adds a leaf's hosts with a share of 0 (computed: no traffic).
func (r *grpcRun) listHosts(l *grpcLeaf) {
	r.listHostsShares(l, make([]float64, len(l.hosts)))
}

func (r *grpcRun) listHostsShares(l *grpcLeaf, shares []float64) {
	cluster := ""
	if r.cr.Aggregate != nil {
		cluster = l.name
	}
	for i, h := range l.hosts {
		v := lbmodel.CleanFraction(shares[i])
		r.cr.Hosts = append(r.cr.Hosts, traffic.HostReport{
			Cluster: cluster, Address: h.Address, Hostname: h.Hostname, Priority: h.Priority,
			Region: h.Locality.Region, Zone: h.Locality.Zone, SubZone: h.Locality.SubZone,
			Health: h.Status.String(), Weight: max(1, h.Weight), Share: &v,
		})
	}
}

// sortHosts orders hosts by share, largest first, keeping file order
// among equals (as explain's Envoy report does).
func sortHosts(hs []traffic.HostReport) {
	sort.SliceStable(hs, func(i, j int) bool {
		a, b := hs[i].Share, hs[j].Share
		if a == nil || b == nil {
			return a != nil && b == nil
		}
		return *a > *b
	})
}
