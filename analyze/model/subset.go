package model

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	commonv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/common/v3"
	subsetv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/subset/v3"
	"github.com/lbctl/lbctl/lbmodel/subset"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/lbctl/lbctl/analyze/config"
)

// SubsetSetup is a cluster's subset load balancer as Envoy builds it: the
// subset configuration and the child policy every subset runs.
type SubsetSetup struct {
	Config subset.Config
	// Typed is true when the configuration is the
	// envoy.load_balancing_policies.subset extension (load_balancing_policy)
	// rather than the legacy Cluster.lb_subset_config.
	Typed bool
	// ChildPolicy names the policy inside each subset: lb_policy for the
	// legacy field, the first policy Envoy supports in subset_lb_policy for
	// the extension.
	ChildPolicy string
	// Child is what the subset LB needs of the child policy to tell whether
	// a pool returns a host.
	Child subset.ChildLB
	// Pos is where the subset configuration is written.
	Pos config.Pos
	// LB is the subset load balancer over the cluster's hosts, built once;
	// nil when disabled or when the configuration has errors.
	LB *subset.LB

	at config.Place // where Pos is read from

	src      proto.Message   // the legacy config or the extension message
	selPos   []proto.Message // each selector's message, for positions
	defaults *structpb.Struct
}

// subsetOf reads cl's subset configuration: the legacy lb_subset_config, or
// the typed envoy.extensions.load_balancing_policies.subset.v3.Subset
// policy when it is the load_balancing_policy Envoy uses. It returns nil
// when the cluster has neither. The problems are Envoy's rejections (as
// errors) and settings that cannot work as written (as warnings), each with
// its position.
//
// Envoy: SubsetLbFactory::loadLegacy and SubsetLoadBalancerConfig
// (source/extensions/load_balancing_policies/subset/config.cc,
// subset_lb_config.cc); ClusterInfoImpl::configureLbPolicies
// (source/common/upstream/upstream_impl.cc) rejects load_balancing_policy
// together with lb_subset_config.
func subsetOf(c *config.Config, cl *config.Cluster, m *Model) (*SubsetSetup, placed) {
	p := cl.Proto
	var probs placed
	typed, childName, childMsg := typedSubset(c, p)
	legacy := p.GetLbSubsetConfig()
	if legacy != nil && len(p.GetLoadBalancingPolicy().GetPolicies()) > 0 {
		probs = append(probs, placedProblem{config.Place{Msg: p, Field: "lb_subset_config"}, config.Problem{Severity: config.SevError, Code: config.CodeInvalidValue,
			Msg: "cluster: load_balancing_policy cannot be combined with lb_subset_config (Envoy rejects the cluster)"}})
	}
	var s *SubsetSetup
	switch {
	case typed != nil:
		s = subsetFromTyped(typed)
		s.at = config.Place{Msg: typed}
		s.ChildPolicy = childName
		if l, ok := childMsg.(interface {
			GetLocalityLbConfig() *commonv3.LocalityLbConfig
		}); ok {
			s.Child.FailTrafficOnPanic = l.GetLocalityLbConfig().GetZoneAwareLbConfig().GetFailTrafficOnPanic()
		}
	case legacy != nil && len(p.GetLoadBalancingPolicy().GetPolicies()) == 0:
		s = subsetFromLegacy(legacy)
		s.at = config.Place{Msg: p, Field: "lb_subset_config"}
		s.ChildPolicy = p.GetLbPolicy().String()
		s.Child.FailTrafficOnPanic = p.GetCommonLbConfig().GetZoneAwareLbConfig().GetFailTrafficOnPanic()
		if p.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED {
			probs = append(probs, placedProblem{config.Place{Msg: p, Field: "lb_policy", Value: true}, config.Problem{Severity: config.SevError, Code: config.CodeInvalidValue,
				Msg: "cluster: LB policy CLUSTER_PROVIDED cannot be combined with lb_subset_config"}})
		}
	default:
		return nil, probs
	}
	s.Child.PanicThreshold = m.PanicThreshold
	s.Child.OverprovisioningFactor = m.OverprovisioningFactor
	s.Child.WeightedPriorityHealth = m.WeightedPriorityHealth
	s.check(&probs, cl, m.Hosts)
	return s, probs
}

// typedSubset finds the Subset extension when it is the first
// load_balancing_policy entry Envoy supports, with its child policy's name
// and decoded config.
func typedSubset(c *config.Config, p *clusterv3.Cluster) (*subsetv3.Subset, string, proto.Message) {
	i := typedIndex(p)
	if i < 0 {
		return nil, "", nil
	}
	sub, ok := c.Sources.Unpacked(p.GetLoadBalancingPolicy().GetPolicies()[i].GetTypedExtensionConfig().GetTypedConfig()).(*subsetv3.Subset)
	if !ok {
		return nil, "", nil
	}
	// The child is chosen the same way: the first entry Envoy knows.
	for _, child := range sub.GetSubsetLbPolicy().GetPolicies() {
		name := config.TypeName(child.GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())
		if n, ok := TypedPolicyName(name); ok {
			return sub, n, c.Sources.Unpacked(child.GetTypedExtensionConfig().GetTypedConfig())
		}
	}
	return sub, "", nil
}

func subsetFromLegacy(l *clusterv3.Cluster_LbSubsetConfig) *SubsetSetup {
	s := &SubsetSetup{src: l, defaults: l.GetDefaultSubset()}
	s.Config = subset.Config{
		FallbackPolicy:      subset.FallbackPolicy(l.GetFallbackPolicy()),
		DefaultSubset:       config.StructMap(l.GetDefaultSubset()),
		LocalityWeightAware: l.GetLocalityWeightAware(),
		ScaleLocalityWeight: l.GetScaleLocalityWeight(),
		PanicModeAny:        l.GetPanicModeAny(),
		ListAsAny:           l.GetListAsAny(),
		MetadataFallback:    subset.MetadataFallbackPolicy(l.GetMetadataFallbackPolicy()),
	}
	for _, sel := range l.GetSubsetSelectors() {
		s.Config.Selectors = append(s.Config.Selectors, subset.Selector{
			Keys:                sel.GetKeys(),
			FallbackPolicy:      subset.SelectorFallbackPolicy(sel.GetFallbackPolicy()),
			FallbackKeysSubset:  sel.GetFallbackKeysSubset(),
			SingleHostPerSubset: sel.GetSingleHostPerSubset(),
		})
		s.selPos = append(s.selPos, sel)
	}
	return s
}

func subsetFromTyped(t *subsetv3.Subset) *SubsetSetup {
	s := &SubsetSetup{src: t, defaults: t.GetDefaultSubset(), Typed: true}
	s.Config = subset.Config{
		FallbackPolicy:      subset.FallbackPolicy(t.GetFallbackPolicy()),
		DefaultSubset:       config.StructMap(t.GetDefaultSubset()),
		LocalityWeightAware: t.GetLocalityWeightAware(),
		ScaleLocalityWeight: t.GetScaleLocalityWeight(),
		PanicModeAny:        t.GetPanicModeAny(),
		ListAsAny:           t.GetListAsAny(),
		MetadataFallback:    subset.MetadataFallbackPolicy(t.GetMetadataFallbackPolicy()),
		AllowRedundantKeys:  t.GetAllowRedundantKeys(),
	}
	for _, sel := range t.GetSubsetSelectors() {
		s.Config.Selectors = append(s.Config.Selectors, subset.Selector{
			Keys:                sel.GetKeys(),
			FallbackPolicy:      subset.SelectorFallbackPolicy(sel.GetFallbackPolicy()),
			FallbackKeysSubset:  sel.GetFallbackKeysSubset(),
			SingleHostPerSubset: sel.GetSingleHostPerSubset(),
		})
		s.selPos = append(s.selPos, sel)
	}
	return s
}
