package lint

import (
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/lbctl/lbctl/analyze"
)

// shared is derived data several rules use, computed once per Run.
type shared struct {
	cfg    *analyze.Config
	models map[*analyze.Cluster]*analyze.Model
	routes []*RouteTarget
	routed bool
	pgv    []*Violation
	pgvRun bool
}

func newShared(cfg *analyze.Config) *shared {
	return &shared{cfg: cfg, models: map[*analyze.Cluster]*analyze.Model{}}
}

// Model is cfg.Model(cl), cached.
func (s *shared) Model(cl *analyze.Cluster) *analyze.Model {
	if m, ok := s.models[cl]; ok {
		return m
	}
	m := s.cfg.Model(cl)
	s.models[cl] = m
	return m
}

// RouteTarget is one cluster a route sends traffic to: the route's own
// cluster, or one weighted_clusters entry.
type RouteTarget struct {
	Route   *routev3.Route
	Action  *routev3.RouteAction
	Cluster string
	// Ref is the message whose "name"/"cluster" field names the cluster
	// (the RouteAction or the WeightedCluster_ClusterWeight).
	Ref   proto.Message
	Field string
	// Match is the merged subset criteria under envoy.lb: the route's
	// metadata_match, overridden key by key by the weighted cluster's
	// (RouteEntryImplBase / WeightedClusterEntry, config_impl.cc).
	Match      map[string]*structpb.Value
	HasMatch   bool
	HashPolicy bool
}

// Routes lists every route target in the loaded route configurations.
func (s *shared) Routes() []*RouteTarget {
	if s.routed {
		return s.routes
	}
	s.routed = true
	for _, rc := range s.cfg.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			for _, r := range vh.GetRoutes() {
				a := r.GetRoute()
				if a == nil {
					continue
				}
				base := map[string]*structpb.Value{}
				hasBase := false
				if mm := a.GetMetadataMatch().GetFilterMetadata()["envoy.lb"]; mm != nil {
					hasBase = true
					for k, v := range mm.GetFields() {
						base[k] = v
					}
				}
				hash := len(a.GetHashPolicy()) > 0
				if c := a.GetCluster(); c != "" {
					s.routes = append(s.routes, &RouteTarget{Route: r, Action: a, Cluster: c, Ref: a, Field: "cluster",
						Match: base, HasMatch: hasBase, HashPolicy: hash})
				}
				for _, wc := range a.GetWeightedClusters().GetClusters() {
					m := map[string]*structpb.Value{}
					for k, v := range base {
						m[k] = v
					}
					has := hasBase
					if mm := wc.GetMetadataMatch().GetFilterMetadata()["envoy.lb"]; mm != nil {
						has = true
						for k, v := range mm.GetFields() {
							m[k] = v
						}
					}
					s.routes = append(s.routes, &RouteTarget{Route: r, Action: a, Cluster: wc.GetName(), Ref: wc, Field: "name",
						Match: m, HasMatch: has, HashPolicy: hash})
				}
			}
		}
	}
	return s.routes
}

// RoutesTo lists the route targets naming cluster name.
func (s *shared) RoutesTo(name string) []*RouteTarget {
	var out []*RouteTarget
	for _, rt := range s.Routes() {
		if rt.Cluster == name {
			out = append(out, rt)
		}
	}
	return out
}

// Typed returns the decoded load_balancing_policy entries of c in order
// (nil for entries whose type this build does not know).
func (s *shared) Typed(c *clusterv3.Cluster) []proto.Message {
	var out []proto.Message
	for _, p := range c.GetLoadBalancingPolicy().GetPolicies() {
		out = append(out, s.cfg.Sources.Unpacked(p.GetTypedExtensionConfig().GetTypedConfig()))
	}
	return out
}

// typeName is the last path element of a type URL.
func typeName(url string) string { return url[strings.LastIndexByte(url, '/')+1:] }

// isHashPolicy reports whether an effective policy name hashes requests.
func isHashPolicy(name string) bool { return name == "RING_HASH" || name == "MAGLEV" }

// providesLB reports whether the cluster's type brings its own load
// balancer (cluster_factory: ORIGINAL_DST and custom cluster types such as
// envoy.clusters.aggregate).
func providesLB(c *clusterv3.Cluster) bool {
	if c.GetClusterType() != nil {
		return true
	}
	return c.GetType() == clusterv3.Cluster_ORIGINAL_DST
}

// usesClusterProvided reports whether the cluster asks for a
// cluster-provided LB: the enum, or a first typed entry of ClusterProvided.
func (s *shared) usesClusterProvided(c *clusterv3.Cluster) bool {
	return analyze.PolicyName(c) == "CLUSTER_PROVIDED"
}
