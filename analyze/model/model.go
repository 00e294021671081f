package model

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	aggregatev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/clusters/aggregate/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
)

// Model is a cluster turned into lbmodel's plain inputs.
type Model struct {
	Name string
	// Policy is the lb_policy enum name (ROUND_ROBIN, …), or for
	// load_balancing_policy the name of the first policy Envoy supports.
	Policy                 string
	Hosts                  []lbmodel.Host
	OverprovisioningFactor uint32
	WeightedPriorityHealth bool
	// PanicThreshold is the effective integer threshold; PanicThresholdSet
	// says whether the cluster sets one.
	PanicThreshold    int
	PanicThresholdSet bool
	// Aggregate lists an aggregate cluster's children in order; IsAggregate
	// is true for envoy.clusters.aggregate even when the list is empty.
	IsAggregate bool
	Aggregate   []string
}

// Levels is the cluster's priority levels for lbmodel.
func (m *Model) Levels() []lbmodel.Level {
	return lbmodel.LevelsFromHosts(m.Hosts, m.OverprovisioningFactor, m.WeightedPriorityHealth)
}

// AggregateType is the cluster_type name of aggregate clusters.
const AggregateType = "envoy.clusters.aggregate"

// Model builds the lbmodel inputs of cluster cl.
func Of(c *config.Config, cl *config.Cluster) *Model {
	p := cl.Proto
	m := &Model{
		Name:                   p.GetName(),
		Policy:                 PolicyName(p),
		OverprovisioningFactor: lbmodel.DefaultOverprovisioningFactor,
	}
	if t := p.GetCommonLbConfig().GetHealthyPanicThreshold(); t != nil {
		m.PanicThresholdSet = true
		m.PanicThreshold = lbmodel.PanicThreshold(t.GetValue(), true)
	} else {
		m.PanicThreshold = lbmodel.PanicThreshold(0, false)
	}
	if a := cl.Assignment; a != nil {
		if opf := a.GetPolicy().GetOverprovisioningFactor(); opf != nil {
			m.OverprovisioningFactor = opf.GetValue()
		}
		m.WeightedPriorityHealth = a.GetPolicy().GetWeightedPriorityHealth()
		m.Hosts = hostsOf(a, c.LiveHealth[m.Name])
	}
	if ct := p.GetClusterType(); ct.GetName() == AggregateType {
		m.IsAggregate = true
		if agg, ok := c.Sources.Unpacked(ct.GetTypedConfig()).(*aggregatev3.ClusterConfig); ok {
			m.Aggregate = agg.GetClusters()
		}
	}
	return m
}

// hostsOf lists an assignment's endpoints in file order.
func hostsOf(a *endpointv3.ClusterLoadAssignment, live map[string]config.LiveHost) []lbmodel.Host {
	var hosts []lbmodel.Host
	for _, group := range a.GetEndpoints() {
		loc := lbmodel.Locality{
			Region:  group.GetLocality().GetRegion(),
			Zone:    group.GetLocality().GetZone(),
			SubZone: group.GetLocality().GetSubZone(),
		}
		for _, ep := range group.GetLbEndpoints() {
			h := lbmodel.Host{
				Address:        config.FormatAddress(ep.GetEndpoint().GetAddress()),
				Hostname:       ep.GetEndpoint().GetHostname(),
				Priority:       int(group.GetPriority()),
				Locality:       loc,
				LocalityWeight: group.GetLoadBalancingWeight().GetValue(),
				Weight:         1,
				Status:         lbmodel.HealthStatus(ep.GetHealthStatus()),
			}
			if w := ep.GetLoadBalancingWeight(); w != nil {
				h.Weight = w.GetValue()
			}
			if md := ep.GetMetadata().GetFilterMetadata()["envoy.lb"]; md != nil {
				h.Metadata = md.AsMap()
			}
			if lh, ok := live[h.Address]; ok {
				h.Status = lh.Status
			}
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// typedPolicies names the load_balancing_policy extensions by the lb_policy
// enum they correspond to.
var typedPolicies = map[string]string{
	"envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin":                                        "ROUND_ROBIN",
	"envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest":                                    "LEAST_REQUEST",
	"envoy.extensions.load_balancing_policies.random.v3.Random":                                                 "RANDOM",
	"envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash":                                            "RING_HASH",
	"envoy.extensions.load_balancing_policies.maglev.v3.Maglev":                                                 "MAGLEV",
	"envoy.extensions.load_balancing_policies.cluster_provided.v3.ClusterProvided":                              "CLUSTER_PROVIDED",
	"envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin": "CLIENT_SIDE_WEIGHTED_ROUND_ROBIN",
	"envoy.extensions.load_balancing_policies.subset.v3.Subset":                                                 "SUBSET",
	"envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality":                                      "WRR_LOCALITY",
	"envoy.extensions.load_balancing_policies.pick_first.v3.PickFirst":                                          "PICK_FIRST",
	"envoy.extensions.load_balancing_policies.override_host.v3.OverrideHost":                                    "OVERRIDE_HOST",
}

// PolicyName is the cluster's effective LB policy: Envoy uses the first
// load_balancing_policy entry whose type it knows, else lb_policy
// (Cluster::ClusterImplBase, upstream_impl.cc: the typed list wins).
func PolicyName(p *clusterv3.Cluster) string {
	for _, pol := range p.GetLoadBalancingPolicy().GetPolicies() {
		if n, ok := typedPolicies[config.TypeName(pol.GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())]; ok {
			return n
		}
	}
	if len(p.GetLoadBalancingPolicy().GetPolicies()) > 0 {
		return config.TypeName(p.GetLoadBalancingPolicy().GetPolicies()[0].GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())
	}
	return p.GetLbPolicy().String()
}

// IsHashPolicy reports whether lbctl hash applies to policy.
func IsHashPolicy(policy string) bool { return policy == "RING_HASH" || policy == "MAGLEV" }

// UsageError is a problem with the command's arguments rather than the config.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// HostNames lists hosts as Envoy names them: the address, else the
// hostname.
func HostNames(hosts []lbmodel.Host) []string {
	out := make([]string, 0, len(hosts))
	for _, h := range hosts {
		n := h.Address
		if n == "" {
			n = h.Hostname
		}
		out = append(out, n)
	}
	return out
}
