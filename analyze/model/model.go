package model

import (
	"cmp"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	aggregatev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/clusters/aggregate/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
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
	// HostsFromLive: the hosts come from an admin /clusters reading, as
	// the cluster's EDS assignment is not in the input.
	HostsFromLive bool
	// EmptyLocalityWeight is, per priority, the weight of localities
	// without a host here that a hashing LB still sums: a subset pool's
	// (PoolModel). Nil for a cluster.
	EmptyLocalityWeight map[int]uint64

	tables *hash.TableCache
}

// Tables is the cluster's ring/Maglev cache, shared by its host shares and
// its placement notes so each table is built once.
func (m *Model) Tables() *hash.TableCache {
	if m.tables == nil {
		m.tables = &hash.TableCache{}
	}
	return m.tables
}

// Levels is the cluster's priority levels for lbmodel.
func (m *Model) Levels() []lbmodel.Level {
	return lbmodel.LevelsFromHosts(m.Hosts, m.OverprovisioningFactor, m.WeightedPriorityHealth)
}

// AggregateType is the cluster_type name of aggregate clusters.
const AggregateType = "envoy.clusters.aggregate"

// Of builds the lbmodel inputs of cluster cl; reports use Get, which builds
// each cluster's once per loaded config.
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
		m.Hosts = hostsOf(a, c.LiveHealth[m.Name], resolvesDNS(p), DedupesHosts(p))
	} else if live := c.LiveHealth[m.Name]; len(live) > 0 && isEDS(p) {
		m.Hosts, m.HostsFromLive = liveHosts(live), true
	}
	if IsAggregate(cl) {
		m.IsAggregate = true
		ct := p.GetClusterType()
		if agg, ok := c.Sources.Unpacked(ct.GetTypedConfig()).(*aggregatev3.ClusterConfig); ok {
			m.Aggregate = agg.GetClusters()
		}
	}
	return m
}

// DedupesHosts: Envoy keeps only the first endpoint of each address, as
// EDS does (EdsClusterImpl::BatchUpdateHelper::updateLocalityEndpoints,
// eds.cc: "only the first one will be retained", across localities and
// priorities); StaticClusterImpl registers every endpoint. LB1605 and the
// model both ask this.
func DedupesHosts(p *clusterv3.Cluster) bool { return isEDS(p) }

// isEDS: the cluster's endpoints come from EDS.
func isEDS(p *clusterv3.Cluster) bool {
	if ct := p.GetClusterType(); ct != nil {
		return ct.GetName() == "envoy.cluster.eds"
	}
	return p.GetType() == clusterv3.Cluster_EDS
}

// liveHosts are the hosts an admin /clusters reading lists for a cluster
// whose ClusterLoadAssignment is not in the input, by priority, locality
// and address (/clusters gives no file order and no locality weights).
func liveHosts(live map[string]config.LiveHost) []lbmodel.Host {
	hosts := make([]lbmodel.Host, 0, len(live))
	for addr, lh := range live {
		w := lh.Weight
		if w == 0 {
			w = 1
		}
		hosts = append(hosts, lbmodel.Host{Address: addr, Hostname: lh.Hostname, Priority: lh.Priority,
			Locality: lh.Locality, Weight: w, Status: lh.Status})
	}
	slices.SortFunc(hosts, func(a, b lbmodel.Host) int {
		return cmp.Or(cmp.Compare(a.Priority, b.Priority), cmp.Compare(a.Locality.String(), b.Locality.String()), cmp.Compare(a.Address, b.Address))
	})
	return hosts
}

// localityWeight is the group's locality weight as Envoy records it:
// only with both a locality field (even an empty one) and a weight
// (PriorityStateManager::initializePriorityFor, upstream_impl.cc).
func localityWeight(g *endpointv3.LocalityLbEndpoints) uint32 {
	if g.GetLocality() == nil {
		return 0
	}
	return g.GetLoadBalancingWeight().GetValue()
}

// resolvesDNS: the cluster's hosts come from resolving each
// socket_address.address as a DNS name (STRICT_DNS, LOGICAL_DNS, or the
// typed DNS cluster types that replace them).
func resolvesDNS(p *clusterv3.Cluster) bool {
	if ct := p.GetClusterType(); ct != nil {
		switch ct.GetName() {
		case "envoy.cluster.dns", "envoy.cluster.strict_dns", "envoy.cluster.logical_dns":
			return true
		}
		return false
	}
	return p.GetType() == clusterv3.Cluster_STRICT_DNS || p.GetType() == clusterv3.Cluster_LOGICAL_DNS
}

// hostsOf lists an assignment's endpoints in file order. With dns, a host
// without endpoint.hostname is named by the DNS name it was resolved from
// (StrictDnsClusterImpl::ResolveTarget's and LogicalDnsCluster's
// constructors: hostname_ = hostname, else socket_address.address), which
// use_hostname_for_hashing then hashes.
func hostsOf(a *endpointv3.ClusterLoadAssignment, live map[string]config.LiveHost, dns, dedup bool) []lbmodel.Host {
	n := 0
	for _, group := range a.GetEndpoints() {
		n += len(group.GetLbEndpoints())
	}
	if n == 0 {
		return nil
	}
	hosts := make([]lbmodel.Host, 0, n)
	var seen map[string]bool
	if dedup {
		seen = make(map[string]bool, n)
	}
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
				LocalityWeight: localityWeight(group),
				Weight:         1,
				Status:         lbmodel.HealthStatus(ep.GetHealthStatus()),
			}
			if w := ep.GetLoadBalancingWeight(); w != nil {
				h.Weight = w.GetValue()
			}
			if seen != nil {
				if seen[h.Address] {
					continue
				}
				seen[h.Address] = true
			}
			if dns && h.Hostname == "" {
				h.Hostname = ep.GetEndpoint().GetAddress().GetSocketAddress().GetAddress()
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

// Addresses is cl's host addresses as configured, before any what-if; an
// aggregate's are its direct children's, as AggregateInputs expands only
// those (a nested aggregate child's hosts are not there: NestedAddresses).
func Addresses(c *config.Config, cl *config.Cluster) []string {
	if cl == nil {
		return nil
	}
	m := Get(c, cl)
	out := make([]string, 0, len(m.Hosts))
	for _, h := range m.Hosts {
		out = append(out, h.Address)
	}
	for _, name := range m.Aggregate {
		if ccl := c.Cluster(name); ccl != nil && !IsAggregate(ccl) {
			out = append(out, Addresses(c, ccl)...)
		}
	}
	return out
}

// NestedAddresses is the host addresses of aggregate cl's nested aggregate
// children at any depth (each cluster once, so a cycle ends): hosts a
// what-if on cl cannot reach, named so its error can say so.
func NestedAddresses(c *config.Config, cl *config.Cluster) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(cl *config.Cluster, nested bool)
	walk = func(cl *config.Cluster, nested bool) {
		if cl == nil || seen[cl.Name()] {
			return
		}
		seen[cl.Name()] = true
		m := Get(c, cl)
		if nested {
			for _, h := range m.Hosts {
				out = append(out, h.Address)
			}
		}
		for _, name := range m.Aggregate {
			ccl := c.Cluster(name)
			walk(ccl, nested || (ccl != nil && IsAggregate(ccl)))
		}
	}
	walk(cl, false)
	return out
}
