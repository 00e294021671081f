package explain

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"

	"github.com/lbctl/lbctl/lbmodel"
)

// clusterNotes explain, in plain language, why a cluster's numbers are what they
// are: spill-over, panic, ignored settings, what lbctl cannot compute.
func clusterNotes(r *model.Result, sh lbmodel.Shares, opt model.Options) []string {
	cl, m, s, in, hp := r.Cluster, r.Model, r.Settings, r.Input, r.HostLB
	out := subsetNotes(r)
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if len(m.Hosts) == 0 {
		switch {
		case edsUnloaded(cl):
			add("%s is an EDS cluster and no ClusterLoadAssignment for it was loaded: pass the EDS resources (or an admin config_dump with ?include_eds) to see its hosts", m.Name)
		case m.Policy == "CLUSTER_PROVIDED":
			add("%s has no static hosts: its cluster type picks the upstream per request (ORIGINAL_DST uses the connection's original destination, or the x-envoy-original-dst-host header with use_http_header)", m.Name)
		default:
			add("%s has no endpoints, so every request to it fails with \"no healthy upstream\"", m.Name)
		}
		return out
	}
	if m.HostsFromLive {
		add("%s's ClusterLoadAssignment is not in the input: its %d hosts, their priority, locality, weight and health come from the admin /clusters reading (live health); locality weights and the assignment's overprovisioning factor are not known", m.Name, len(m.Hosts))
	}
	if t := cl.Proto.GetCommonLbConfig().GetHealthyPanicThreshold(); t != nil && float64(m.PanicThreshold) != t.GetValue() && t.GetValue() < 100 {
		add("healthy_panic_threshold %g is read as %d: Envoy converts it with 100*(value/100.0) and truncates", t.GetValue(), m.PanicThreshold)
	}
	if m.PanicThreshold == 0 {
		add("panic mode is disabled (healthy_panic_threshold 0): unhealthy hosts never receive traffic, even when none is healthy")
	}
	levels := m.Levels()
	load := sh.Load
	switch {
	case load.PanicDisabledNoHealth:
		add("no host is healthy and panic is disabled, so all traffic goes to P0's healthy hosts, of which there are none: every request fails with \"no healthy upstream\"")
	case load.TotalPanic:
		add("every priority is in panic (healthy share below %d%% everywhere), so Envoy ignores health and splits traffic by host count: %s", m.PanicThreshold, levelList(load, func(l lbmodel.LevelLoad) int { return l.HealthyLoad }))
	case load.Unassigned:
		add("no priority has any health availability, yet not every priority is in panic, so Envoy assigns no load at all and falls back to P0 (an ENVOY_BUG path); requests will mostly fail")
	}
	for p, l := range levels {
		ll := load.Levels[p]
		if l.Hosts == 0 {
			if len(levels) > 1 {
				add("P%d has no hosts (a gap in priorities): it counts as 0%% available and never receives traffic", p)
			}
			continue
		}
		if ll.Panic && !load.TotalPanic && ll.HealthyLoad+ll.DegradedLoad > 0 {
			add("P%d is in panic: only %.4g%% of its hosts are healthy or degraded, below the %d%% panic threshold, so the %d%% of traffic it receives goes to all %d of its hosts, healthy or not", p, l.PanicPercent(), m.PanicThreshold, ll.HealthyLoad+ll.DegradedLoad, l.Hosts)
		}
		if ll.Health < 100 && ll.Health > 0 && p+1 < len(levels) && !load.TotalPanic && load.NormalizedTotalAvailability == 100 {
			add("P%d is %d%% available (%d of %d hosts healthy × overprovisioning factor %.2g), so %d%% of traffic spills to lower priorities", p, ll.Health, l.Healthy, l.Hosts-l.Excluded, float64(l.OverprovisioningFactor)/100, 100-ll.Health)
		}
		if l.Excluded > 0 {
			add("P%d has %d DRAINING host(s): Envoy excludes them from health and load balancing (they still count in total panic)", p, l.Excluded)
		}
		if l.Degraded > 0 && ll.DegradedLoad > 0 {
			add("P%d's %d degraded host(s) receive %d%% of traffic: degraded hosts are used only after every priority's healthy hosts", p, l.Degraded, ll.DegradedLoad)
		}
	}
	if load.NormalizedTotalAvailability < 100 && load.NormalizedTotalAvailability > 0 && !load.TotalPanic {
		add("the priorities add up to only %d%% availability, so each receives its availability scaled up to 100 (rounding leftovers go to the first healthy priority)", load.NormalizedTotalAvailability)
	}
	if m.OverprovisioningFactor != lbmodel.DefaultOverprovisioningFactor {
		add("overprovisioning factor is %d (default 140)", m.OverprovisioningFactor)
	}
	if !s.LocalityWeighted && hasLocalityWeights(m.Hosts) && !model.IsHashPolicy(m.Policy) {
		add("locality weights are set but locality_weighted_lb_config is missing, so they are ignored")
	}
	if s.LocalityWeighted {
		for _, ps := range sh.Priorities {
			if ps.LocalityFallback {
				add("P%d: every locality's effective weight is 0, so Envoy balances over all its hosts instead of by locality", ps.Priority)
			}
		}
	}
	if sh.Zone != nil {
		z := sh.Zone
		switch z.Exit {
		case lbmodel.ZoneExitNone:
		case lbmodel.ZoneExitClusterTooSmall:
			add("zone-aware routing is off: P0 has fewer healthy hosts than min_cluster_size (%d)", s.ZoneAware.MinSize())
		case lbmodel.ZoneExitLocalClusterNotOK:
			add("zone-aware routing is off: the local cluster has no host in this Envoy's zone (%s)", in.NodeLocality)
		case lbmodel.ZoneExitUpstreamLocalities:
			add("zone-aware routing is off: P0 has fewer than 2 localities")
		case lbmodel.ZoneExitLocalLocalities:
			add("zone-aware routing is off: the local cluster has fewer than 2 localities")
		}
		if z.Exit == lbmodel.ZoneExitNone {
			switch z.State {
			case lbmodel.LocalityDirect:
				add("zone-aware routing sends all traffic to this Envoy's own zone (%s): it has at least as large a share of the upstream as of the local cluster", in.NodeLocality)
			case lbmodel.LocalityResidual:
				add("zone-aware routing keeps %.2f%% of traffic in this Envoy's zone (%s) and spreads the rest over zones with spare capacity", float64(z.LocalPercentToRoute)/100, in.NodeLocality)
			}
		}
		if sh.LocalClusterPanic {
			add("zone-aware routing is skipped: the local cluster is in panic")
		}
	} else if name := r.Local.Cluster; name == "" && s.ZoneAwareSet && !r.Local.HasBootstrap {
		// xDS resources alone do not say: the bootstrap names the local cluster.
		add("zone_aware_lb_config is set; whether zone-aware routing happens depends on the bootstrap's cluster_manager.local_cluster_name, which is not in the input (pass the bootstrap, or %s)", option.LocalCluster)
	} else if name == "" && s.ZoneAwareSet {
		add("zone_aware_lb_config is set but no local cluster is configured (cluster_manager.local_cluster_name or %s), so zone-aware routing never happens", option.LocalCluster)
	} else if name != "" && !r.Local.ClusterDefined && name != m.Name {
		add("the local cluster %q is not in the loaded config, so zone-aware routing cannot be computed", name)
	} else if name != "" && s.LocalityWeighted {
		// Locality weighting takes precedence; nothing to add.
	} else if name != "" {
		if !r.Local.LocalityKnown {
			add("a local cluster is configured but this Envoy's locality is unknown (node.locality or %s), so zone-aware routing cannot be computed", option.Zone)
		}
	}
	if sh.NoHost > 1e-12 {
		add("%.4g%% of requests find no host and fail", sh.NoHost*100)
	}
	if !hp.Computable && hp.RequestTime == "" {
		add("host shares are not computed for lb_policy %s: the host is chosen by the cluster itself or by an extension lbctl does not model", m.Policy)
	}
	out = append(out, policyNotes(m, s, in, hp, opt)...)
	if t := cl.Proto.GetType().String(); t == "STRICT_DNS" || t == "LOGICAL_DNS" {
		add("%s is %s: each address is a DNS name that Envoy resolves at run time (STRICT_DNS makes one host per resolved IP); lbctl counts one host per configured address", m.Name, t)
	}
	out = append(out, hashNotes(r)...)
	return out
}

// perRequestNote says how a cluster of type t picks its host per request.
func perRequestNote(cl *config.Cluster, name, t string) string {
	if t != "ORIGINAL_DST" {
		return fmt.Sprintf("%s makes its hosts per request (%s): each request's host (:authority) is resolved and becomes the upstream, so there is no host set, priority load, panic or failure budget to compute", name, t)
	}
	how := "the connection's original destination address"
	if h := model.OriginalDstHeader(cl.Proto); h != "" {
		how = fmt.Sprintf("the address in the request's %s header (use_http_header)", config.Escape(h))
	}
	return fmt.Sprintf("%s makes its hosts per request (ORIGINAL_DST): each request goes to %s, so there is no host set, priority load, panic or failure budget to compute", name, how)
}

func hasLocalityWeights(hosts []lbmodel.Host) bool {
	for _, h := range hosts {
		if h.LocalityWeight > 0 {
			return true
		}
	}
	return false
}

func levelList(load lbmodel.PriorityLoad, f func(lbmodel.LevelLoad) int) string {
	parts := make([]string, len(load.Levels))
	for i, l := range load.Levels {
		parts[i] = fmt.Sprintf("P%d %d%%", i, f(l))
	}
	return strings.Join(parts, ", ")
}

// aggregateNotes explain an aggregate cluster's top tier.
func aggregateNotes(r *model.Result, as lbmodel.AggregateShares, childLB map[string]*model.HostPolicy) []string {
	m := r.Model
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if len(m.Aggregate) == 0 {
		add("%s is an aggregate cluster with no clusters listed; Envoy rejects it", m.Name)
		return out
	}
	seen := map[string]bool{}
	for _, ch := range r.Children {
		name := ch.Name
		switch {
		case seen[name]:
			add("child %q is listed more than once: Envoy adds its priorities again for each listing, so it gets a larger share", name)
			continue
		case name == m.Name:
			add("%s lists itself: an aggregate has no hosts of its own, so that entry contributes nothing", m.Name)
		case ch.Kind == lbmodel.ChildMissing:
			add("child cluster %q is not defined in the loaded config; Envoy skips it silently", name)
		case ch.Kind == lbmodel.ChildAggregate:
			add("child %q is itself an aggregate cluster: Envoy does not descend into it, so it contributes no priorities and receives no traffic", name)
		}
		seen[name] = true
	}
	if len(as.Load.Levels) == 0 {
		missing := 0
		for _, ch := range r.Children {
			if ch.EDSUnloaded {
				missing++
			}
		}
		if missing > 0 {
			add("the children's endpoints are not in the input (%d EDS child(ren) without a ClusterLoadAssignment): pass the EDS resources (or an admin config_dump with ?include_eds) to see where traffic goes", missing)
			return out
		}
		add("no child has any host, so every request fails with \"no healthy upstream\"")
		return out
	}
	load := as.Load.Load
	if load.TotalPanic {
		add("every linearized priority is below the aggregate's %d%% panic threshold: total panic, traffic is split across the children's priorities by host count", m.PanicThreshold)
	}
	for _, ch := range as.Children {
		for p, panic := range ch.LevelPanic {
			for i, l := range as.Load.Levels {
				ll := load.Levels[i]
				if l.Cluster == ch.Name && l.Priority == p && panic && ll.HealthyLoad+ll.DegradedLoad > 0 {
					add("%s's own P%d is in panic in %s itself, so the %d%% of traffic the aggregate sends there goes to all of that level's hosts, healthy or not", ch.Name, p, ch.Name, ll.HealthyLoad+ll.DegradedLoad)
				}
			}
		}
		if lb := childLB[ch.Name]; lb != nil && !lb.Computable {
			add("host shares inside %s are not computed (its lb_policy is not one lbctl models)", ch.Name)
		}
	}
	var parts []string
	for _, cl := range as.Load.ClusterLoad {
		parts = append(parts, fmt.Sprintf("%s %d%%", cl.Cluster, cl.Load))
	}
	add("traffic split across children: %s", strings.Join(parts, ", "))
	if as.NoHost > 1e-12 {
		add("%.4g%% of requests find no host and fail", as.NoHost*100)
	}
	return out
}

// edsUnloaded: an EDS cluster whose ClusterLoadAssignment is not in the
// input, so it has no hosts (they come only from the assignment) and its
// endpoints are unknown rather than absent.
func edsUnloaded(cl *config.Cluster) bool {
	return cl.Proto.GetType().String() == "EDS" && cl.Assignment == nil
}
