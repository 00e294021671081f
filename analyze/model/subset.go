package model

import (
	"fmt"
	"sort"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	commonv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/common/v3"
	subsetv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/subset/v3"
	"github.com/lbctl/lbctl/lbmodel"
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

	src      proto.Message   // the legacy config or the extension message
	selPos   []proto.Message // each selector's message, for positions
	defaults *structpb.Struct
}

// Subset reads cl's subset configuration: the legacy lb_subset_config, or
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
func Subset(c *config.Config, cl *config.Cluster) (*SubsetSetup, config.Problems) {
	p := cl.Proto
	var probs config.Problems
	src := c.Sources
	typed, childName, childMsg := typedSubset(c, p)
	legacy := p.GetLbSubsetConfig()
	if legacy != nil && len(p.GetLoadBalancingPolicy().GetPolicies()) > 0 {
		probs = append(probs, config.Problem{Pos: src.FieldPos(p, "lb_subset_config"), Severity: config.SevError, Code: config.CodeInvalidValue,
			Msg: "cluster: load_balancing_policy cannot be combined with lb_subset_config (Envoy rejects the cluster)"})
	}
	var s *SubsetSetup
	switch {
	case typed != nil:
		s = subsetFromTyped(typed)
		s.Pos = src.Pos(typed)
		s.ChildPolicy = childName
		if l, ok := childMsg.(interface {
			GetLocalityLbConfig() *commonv3.LocalityLbConfig
		}); ok {
			s.Child.FailTrafficOnPanic = l.GetLocalityLbConfig().GetZoneAwareLbConfig().GetFailTrafficOnPanic()
		}
	case legacy != nil && len(p.GetLoadBalancingPolicy().GetPolicies()) == 0:
		s = subsetFromLegacy(legacy)
		s.Pos = src.FieldPos(p, "lb_subset_config")
		s.ChildPolicy = p.GetLbPolicy().String()
		s.Child.FailTrafficOnPanic = p.GetCommonLbConfig().GetZoneAwareLbConfig().GetFailTrafficOnPanic()
		if p.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED {
			probs = append(probs, config.Problem{Pos: src.ValuePos(p, "lb_policy"), Severity: config.SevError, Code: config.CodeInvalidValue,
				Msg: "cluster: LB policy CLUSTER_PROVIDED cannot be combined with lb_subset_config"})
		}
	default:
		return nil, probs
	}
	m := Get(c, cl)
	s.Child.PanicThreshold = m.PanicThreshold
	s.Child.OverprovisioningFactor = m.OverprovisioningFactor
	s.Child.WeightedPriorityHealth = m.WeightedPriorityHealth
	probs = append(probs, s.check(src, m.Hosts)...)
	probs = append(probs, hostMetadataProblems(c, cl, s)...)
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

// check validates the selectors one by one, so each rejection points at
// its own selector, then reports settings that cannot do what they seem
// to, each at its place in the file.
func (s *SubsetSetup) check(src *config.Sources, hosts []lbmodel.Host) config.Problems {
	var out config.Problems
	for i, sel := range s.Config.Selectors {
		pos := src.Pos(s.selPos[i])
		if len(sel.Keys) == 0 {
			out = append(out, config.Problem{Pos: pos, Severity: config.SevWarning, Code: config.CodeInvalidValue,
				Msg: fmt.Sprintf("subset_selectors[%d] has no keys: Envoy drops it silently", i)})
			continue
		}
		one := subset.Config{Selectors: []subset.Selector{sel}}
		if _, err := subset.NewLB(one, nil); err != nil {
			msg := err.Error()
			if len(msg) > 20 && msg[:20] == "subset_selectors[0]:" {
				msg = fmt.Sprintf("subset_selectors[%d]:%s", i, msg[20:])
			}
			out = append(out, config.Problem{Pos: src.FieldPos(s.selPos[i], "fallback_keys_subset"), Severity: config.SevError, Code: config.CodeInvalidValue,
				Msg: msg + " (Envoy rejects the cluster)"})
		}
	}
	if len(out.Errors()) > 0 || !s.Config.Enabled() {
		return out
	}
	lb, err := subset.NewLB(s.Config, hosts)
	if err != nil {
		return append(out, config.Problem{Pos: s.Pos, Severity: config.SevError, Code: config.CodeInvalidValue, Msg: err.Error()})
	}
	for _, i := range lb.LostSelectorPolicies {
		out = append(out, config.Problem{Pos: src.FieldPos(s.selPos[i], "fallback_policy"), Severity: config.SevWarning, Code: config.CodeInvalidValue,
			Msg: fmt.Sprintf("subset_selectors[%d] fallback_policy %s is ignored: an earlier selector already created the path for its keys (initSubsetSelectorMap keeps the first)",
				i, s.Config.Selectors[i].FallbackPolicy)})
	}
	if s.Config.FallbackPolicy == subset.FallbackDefault && len(s.Config.DefaultSubset) > 0 {
		if def, _ := lb.DefaultSubset(); len(def) == 0 && len(hosts) > 0 {
			out = append(out, config.Problem{Pos: src.FieldPos(s.src, "default_subset"), Severity: config.SevWarning, Code: config.CodeInvalidValue,
				Msg: "default_subset " + lbmodel.NewMatchCriteria(s.Config.DefaultSubset).String() + " matches no host: the DEFAULT_SUBSET fallback returns no host"})
		}
	}
	for _, k := range SortedMapKeys(s.Config.DefaultSubset) {
		if msg := KindMismatch(k, s.Config.DefaultSubset[k], hosts, s.Config.ListAsAny); msg != "" && s.defaults != nil {
			out = append(out, config.Problem{Pos: src.ValuePos(s.defaults, k), Severity: config.SevWarning, Code: config.CodeType,
				Msg: "default_subset " + msg})
		}
	}
	return out
}

// hostMetadataProblems reports selector keys whose values are of mixed
// kinds across hosts (a string "1.0" on one host, a number 1 on another):
// they form different subsets and no single criterion matches both.
func hostMetadataProblems(c *config.Config, cl *config.Cluster, s *SubsetSetup) config.Problems {
	keys := map[string]bool{}
	for _, sel := range s.Config.Selectors {
		for _, k := range sel.Keys {
			keys[k] = true
		}
	}
	type seen struct {
		kind lbmodel.ValueKind
		addr string
	}
	first := map[string]seen{}
	var out config.Problems
	for _, group := range cl.Assignment.GetEndpoints() {
		for _, ep := range group.GetLbEndpoints() {
			md := ep.GetMetadata().GetFilterMetadata()["envoy.lb"]
			addr := config.FormatAddress(ep.GetEndpoint().GetAddress())
			for _, k := range sortedKeysOf(md) {
				if !keys[k] {
					continue
				}
				kind := lbmodel.KindOf(md.GetFields()[k].AsInterface())
				f, ok := first[k]
				if !ok {
					first[k] = seen{kind, addr}
					continue
				}
				if f.kind != kind {
					out = append(out, config.Problem{Pos: c.Sources.ValuePos(md, k), Severity: config.SevWarning, Code: config.CodeType,
						Msg: fmt.Sprintf("metadata %s of %s is a %s but %s's is a %s: they never fall in the same subset, and a criterion matches only one kind", k, addr, kind, f.addr, f.kind)})
				}
			}
		}
	}
	return out
}

// KindMismatch says why a wanted value can match no host although hosts
// carry the key: every host's value is of another kind (the classic
// `v: 1.0` number against `v: "1.0"` string). "" when it can match or no
// host has the key.
// With list_as_any a host list stands for its elements.
func KindMismatch(key string, want any, hosts []lbmodel.Host, listAsAny bool) string {
	kinds := map[lbmodel.ValueKind]bool{}
	var example any
	for _, h := range hosts {
		v, ok := h.Metadata[key]
		if !ok {
			continue
		}
		vals := []any{v}
		if l, isList := v.([]any); isList && listAsAny {
			vals = append(vals, l...)
		}
		for _, e := range vals {
			if lbmodel.KindOf(e) == lbmodel.KindOf(want) {
				return ""
			}
		}
		if len(kinds) == 0 {
			example = v
		}
		kinds[lbmodel.KindOf(v)] = true
	}
	if len(kinds) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s is a %s, but the hosts' %s values are of another kind (e.g. %s): they never match (quote the value to make it a string)",
		key, lbmodel.FormatValue(want), lbmodel.KindOf(want), key, lbmodel.FormatValue(example))
}

func SortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedKeysOf(s *structpb.Struct) []string {
	out := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
