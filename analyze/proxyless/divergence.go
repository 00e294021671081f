package proxyless

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// BothReport is `explain --semantics both`: Envoy's answer, gRPC's, and
// where they differ.
type BothReport struct {
	Envoy       *traffic.Report `json:"envoy" yaml:"envoy"`
	GRPC        *traffic.Report `json:"grpc" yaml:"grpc"`
	Differences []Difference    `json:"differences" yaml:"differences"`
}

// Difference is one way a cluster behaves differently under Envoy and gRPC.
type Difference struct {
	Cluster string `json:"cluster" yaml:"cluster"`
	What    string `json:"what" yaml:"what"`
	Envoy   string `json:"envoy" yaml:"envoy"`
	GRPC    string `json:"grpc" yaml:"grpc"`
}

// Both computes the gRPC report beside env, explain's report of the same
// clusters, and their differences: first the numbers that differ (loads,
// failing share, host shares), then every row of grpc.md §16 that applies
// to the cluster (grpc.Divergences).
func Both(c *config.Config, clusters []*config.Cluster, env *traffic.Report, opt GRPCOptions) (*BothReport, error) {
	env.Semantics = "envoy"
	g, err := Build(c, clusters, opt)
	if err != nil {
		return nil, err
	}
	out := &BothReport{Envoy: env, GRPC: g, Differences: []Difference{}}
	for i, cl := range clusters {
		out.Differences = append(out.Differences, reportDiffs(env.Clusters[i], g.Clusters[i])...)
		for _, d := range grpc.Divergences(grpcTraits(c, cl, opt)) {
			out.Differences = append(out.Differences, Difference{Cluster: cl.Name(), What: d.What, Envoy: d.Envoy, GRPC: d.GRPC})
		}
	}
	return out, nil
}

// reportDiffs compares the numbers of one cluster's two reports.
func reportDiffs(e, g traffic.ClusterReport) []Difference {
	var out []Difference
	add := func(what, ev, gv string) {
		out = append(out, Difference{Cluster: e.Name, What: what, Envoy: ev, GRPC: gv})
	}
	if math.Abs(e.NoHostShare-g.NoHostShare) > 1e-9 {
		add("share of requests that find no host", share(e.NoHostShare), share(g.NoHostShare))
	}
	if e.Aggregate == nil && g.Aggregate == nil {
		n := max(len(e.Priorities), len(g.Priorities))
		for p := 0; p < n; p++ {
			var ev, gv int
			if p < len(e.Priorities) {
				ev = e.Priorities[p].HealthyLoad + e.Priorities[p].DegradedLoad
			}
			if p < len(g.Priorities) {
				gv = g.Priorities[p].HealthyLoad
			}
			if ev != gv {
				add(fmt.Sprintf("load of priority %d", p), strconv.Itoa(ev)+"%", strconv.Itoa(gv)+"%")
			}
		}
	} else {
		load := func(a *traffic.AggregateReport) map[string]int {
			m := map[string]int{}
			if a != nil {
				for _, cl := range a.ClusterLoad {
					m[cl.Cluster] += cl.Load
				}
			}
			return m
		}
		levels := func(a *traffic.AggregateReport) map[string]int {
			m := map[string]int{}
			if a != nil {
				for _, l := range a.Levels {
					m[fmt.Sprintf("%s/P%d", l.Cluster, l.Priority)] += l.HealthyLoad + l.DegradedLoad
				}
			}
			return m
		}
		ev, gv := levels(e.Aggregate), levels(g.Aggregate)
		var keys []string
		for _, a := range []*traffic.AggregateReport{e.Aggregate, g.Aggregate} {
			if a != nil {
				for _, l := range a.Levels {
					keys = append(keys, fmt.Sprintf("%s/P%d", l.Cluster, l.Priority))
				}
			}
		}
		doneL := map[string]bool{}
		for _, k := range keys {
			if !doneL[k] && ev[k] != gv[k] {
				add("load of level "+k, strconv.Itoa(ev[k])+"%", strconv.Itoa(gv[k])+"%")
			}
			doneL[k] = true
		}
		el, gl := load(e.Aggregate), load(g.Aggregate)
		var names []string
		if e.Aggregate != nil {
			names = append(names, e.Aggregate.Clusters...)
		}
		if g.Aggregate != nil {
			names = append(names, g.Aggregate.Clusters...)
		}
		done := map[string]bool{}
		for _, n := range names {
			if done[n] {
				continue
			}
			done[n] = true
			if el[n] != gl[n] {
				add("traffic to child cluster "+n, strconv.Itoa(el[n])+"%", strconv.Itoa(gl[n])+"%")
			}
		}
	}
	type key struct{ cluster, addr string }
	gs := map[key]*float64{}
	for _, h := range g.Hosts {
		gs[key{h.Cluster, h.Address}] = h.Share
	}
	seen := map[key]bool{}
	for _, h := range e.Hosts {
		gv, ok := gs[key{h.Cluster, h.Address}]
		if !ok || seen[key{h.Cluster, h.Address}] {
			continue
		}
		seen[key{h.Cluster, h.Address}] = true
		ev := "not computed"
		if h.Share != nil {
			ev = share(*h.Share)
		}
		if gv != nil && (h.Share == nil || math.Abs(*h.Share-*gv) > 1e-9) {
			what := "share of host " + h.Address
			if h.Cluster != "" {
				what += " (" + h.Cluster + ")"
			}
			add(what, ev, share(*gv))
		}
	}
	return out
}

func share(v float64) string { return strconv.FormatFloat(v*100, 'f', 2, 64) + "%" }

// grpcTraits describes cl for grpc.Divergences.
func grpcTraits(c *config.Config, cl *config.Cluster, opt GRPCOptions) grpc.ClusterTraits {
	p := cl.Proto
	m := model.Get(c, cl)
	s := model.Settings(c, cl)
	t := grpc.ClusterTraits{LBPolicy: p.GetLbPolicy().String(), Type: p.GetType().String()}
	if m.IsAggregate {
		t.Type = "AGGREGATE"
		cmap, _ := grpcClusterMap(c, opt.Impl)
		seen := map[string]bool{}
		for _, ch := range m.Aggregate {
			t.AggregateDuplicateChild = t.AggregateDuplicateChild || seen[ch]
			seen[ch] = true
			x := c.Cluster(ch)
			switch {
			case x == nil:
				t.AggregateMissingChild = true
			case model.IsAggregate(x):
				t.AggregateNested = true
			}
		}
		if agg, err := grpc.ResolveAggregate(cl.Name(), cmap); err == nil {
			t.AggregateDuplicateChild = t.AggregateDuplicateChild || len(agg.Duplicates) > 0
			pols := map[string]bool{}
			for _, l := range agg.Resolution(opt.Impl).Leaves {
				pols[cmap[l].LBPolicy] = true
			}
			t.AggregateLeafPoliciesDiffer = len(pols) > 1
		}
		if pols := p.GetLoadBalancingPolicy().GetPolicies(); len(pols) > 1 &&
			config.TypeName(pols[0].GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl()) == "envoy.extensions.load_balancing_policies.cluster_provided.v3.ClusterProvided" {
			t.TypedClusterProvided = true
		}
	}
	if a := cl.Assignment; a != nil {
		prios := map[uint32]bool{}
		locs := map[lbmodel.Locality]bool{}
		var maxP uint32
		for _, g := range a.GetEndpoints() {
			prios[g.GetPriority()] = true
			maxP = max(maxP, g.GetPriority())
			locs[lbmodel.Locality{Region: g.GetLocality().GetRegion(), Zone: g.GetLocality().GetZone(), SubZone: g.GetLocality().GetSubZone()}] = true
			if g.GetLoadBalancingWeight() != nil {
				t.LocalityWeights = true
			} else {
				t.LocalityWithoutWeight = true
			}
		}
		t.Priorities = len(prios)
		t.PriorityGap = len(prios) > 0 && int(maxP)+1 != len(prios)
		t.Localities = len(locs)
		t.DropOverloads = len(a.GetPolicy().GetDropOverloads())
		t.OverprovisioningFactorSet = a.GetPolicy().GetOverprovisioningFactor() != nil
	}
	for i, h := range m.Hosts {
		t.EndpointWeights = t.EndpointWeights || (i > 0 && h.Weight != m.Hosts[0].Weight)
		t.DegradedEndpoints = t.DegradedEndpoints || h.Status == lbmodel.StatusDegraded
	}
	// From the assignment: the model already dropped EDS repeats.
	seenAddr := map[string]bool{}
	for _, g := range cl.Assignment.GetEndpoints() {
		for _, ep := range g.GetLbEndpoints() {
			addr := config.FormatAddress(ep.GetEndpoint().GetAddress())
			t.DuplicateAddresses = t.DuplicateAddresses || seenAddr[addr]
			seenAddr[addr] = true
		}
	}
	t.LocalityWeightedLB = s.LocalityWeighted
	t.HasSubsets = p.GetLbSubsetConfig() != nil
	t.PanicThresholdSet = p.GetCommonLbConfig().GetHealthyPanicThreshold() != nil
	local := model.LocalClusterName(c, opt.Options)
	t.ZoneAware = s.ZoneAwareSet || local != "" && local != cl.Name()
	t.RingHashMurmur = p.GetRingHashLbConfig().GetHashFunction() == clusterv3.Cluster_RingHashLbConfig_MURMUR_HASH_2 ||
		(s.Policy == "RING_HASH" && s.Ring.HashFunction == hash.HashMurmur2)
	t.RingHashBalanceFactor = p.GetCommonLbConfig().GetConsistentHashingLbConfig().GetHashBalanceFactor() != nil
	t.UseHostnameForHashing = s.Ring.UseHostname
	for _, tp := range model.GRPCPolicyInput(c, p).LoadBalancingPolicy {
		if tp.Type == grpc.TypeRingHash && (tp.RingHash.HashFunction == "" || tp.RingHash.HashFunction == "DEFAULT_HASH") {
			t.RingHashTypedDefaultHash = true
		}
	}
	t.HealthChecks = len(p.GetHealthChecks()) > 0
	t.OutlierDetection = p.GetOutlierDetection() != nil
	t.OverrideHostStatusSet = p.GetCommonLbConfig().GetOverrideHostStatus() != nil
	t.UpstreamConfig = p.GetUpstreamConfig() != nil
	t.RouteHashUnsupported = routeHashUnsupported(c, cl.Name())
	t.SessionAffinity = statefulSessionInUse(c)
	return t
}

// routeHashUnsupported reports whether a route to cluster hashes on
// something gRPC ignores (grpc.md §7, §15): cookie, connection_properties
// (source IP), query_parameter, or filter_state other than
// io.grpc.channel_id.
func routeHashUnsupported(c *config.Config, cluster string) bool {
	for _, rc := range c.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			for _, rt := range vh.GetRoutes() {
				a := rt.GetRoute()
				if a == nil {
					continue
				}
				to := a.GetCluster() == cluster
				for _, wc := range a.GetWeightedClusters().GetClusters() {
					to = to || wc.GetName() == cluster
				}
				if !to {
					continue
				}
				for _, hp := range a.GetHashPolicy() {
					if hp.GetCookie() != nil || hp.GetConnectionProperties() != nil || hp.GetQueryParameter() != nil ||
						(hp.GetFilterState() != nil && hp.GetFilterState().GetKey() != "io.grpc.channel_id") {
						return true
					}
				}
			}
		}
	}
	return false
}

// statefulSessionInUse reports whether some listener runs Envoy's
// stateful session filter (the cookie that xds_override_host honours).
func statefulSessionInUse(c *config.Config) bool { return len(model.StatefulSessions(c)) > 0 }
