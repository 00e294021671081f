package lint

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"google.golang.org/protobuf/proto"
)

// shared is derived data several rules use, computed once per Run.
type shared struct {
	cfg    *config.Config
	models map[*config.Cluster]*model.Model
	routes []config.RouteTarget
	routed bool
	pgv    []*Violation
	pgvRun bool
	// strict restores per-field reporting (Options.Strict).
	strict bool
}

func newShared(cfg *config.Config) *shared {
	return &shared{cfg: cfg, models: map[*config.Cluster]*model.Model{}}
}

// warm fills the shared data most runs use (route index, models, proto
// validation), the three at once on a large configuration: each is a
// full pass over it that the first rule asking would otherwise pay alone.
func (s *shared) warm() {
	if len(s.cfg.Clusters)+len(s.cfg.Routes) < 256 {
		return
	}
	model.Parallel(3, func(i int) {
		switch i {
		case 0:
			s.RoutesTo("")
		case 1:
			for _, cl := range s.cfg.Clusters {
				s.Model(cl) // the only task touching s.models
			}
		case 2:
			s.Violations()
		}
	})
}

// Model is model.Get(cfg, cl): built once per config and shared with the
// reports; kept per run so the rules share one table cache per cluster.
func (s *shared) Model(cl *config.Cluster) *model.Model {
	if m, ok := s.models[cl]; ok {
		return m
	}
	m := model.Get(s.cfg, cl)
	s.models[cl] = m
	return m
}

// Routes lists every route target in the loaded route configurations
// (config.Config.RouteTargets, computed once per run).
func (s *shared) Routes() []config.RouteTarget {
	if !s.routed {
		s.routed = true
		s.routes = s.cfg.RouteTargets()
	}
	return s.routes
}

// RoutesTo lists the route targets naming cluster name (the config's index).
func (s *shared) RoutesTo(name string) []config.RouteTarget { return s.cfg.RoutesTo(name) }

// Typed returns the decoded load_balancing_policy entries of c in order
// (nil for entries whose type this build does not know).
func (s *shared) Typed(c *clusterv3.Cluster) []proto.Message {
	var out []proto.Message
	for _, p := range c.GetLoadBalancingPolicy().GetPolicies() {
		out = append(out, s.cfg.Sources.Unpacked(p.GetTypedExtensionConfig().GetTypedConfig()))
	}
	return out
}

// providesLB reports whether the cluster's type brings its own load
// balancer, and whether lbctl knows the type at all. The cluster factory
// (ClusterFactoryImplBase::create) returns a thread-aware LB for
// ORIGINAL_DST and the aggregate, dynamic forward proxy and redis cluster
// extensions; static, strict/logical DNS, EDS and envoy.cluster.dns return
// none. cluster_manager_impl.cc compares that with CLUSTER_PROVIDED.
func providesLB(c *clusterv3.Cluster) (provides, known bool) {
	if c.GetClusterType() == nil {
		return c.GetType() == clusterv3.Cluster_ORIGINAL_DST, true
	}
	provides, known = clusterTypeLB[c.GetClusterType().GetName()]
	return provides, known
}

// clusterTypeLB: cluster_type names by whether their factory provides an LB.
var clusterTypeLB = map[string]bool{
	"envoy.clusters.aggregate":             true,
	"envoy.clusters.dynamic_forward_proxy": true,
	"envoy.clusters.redis":                 true,
	"envoy.cluster.original_dst":           true,
	"envoy.cluster.static":                 false,
	"envoy.cluster.strict_dns":             false,
	"envoy.cluster.logical_dns":            false,
	"envoy.cluster.eds":                    false,
	"envoy.cluster.dns":                    false,
}

// usesClusterProvided reports whether the cluster asks for a
// cluster-provided LB: the enum, or a first typed entry of ClusterProvided.
func (s *shared) usesClusterProvided(c *clusterv3.Cluster) bool {
	return model.PolicyName(c) == "CLUSTER_PROVIDED"
}
