package model

import (
	"fmt"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	cswrrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/client_side_weighted_round_robin/v3"
	commonv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/common/v3"
	lrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/least_request/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	overridehostv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/override_host/v3"
	randomv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/random/v3"
	ringv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	rrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/round_robin/v3"
	wrrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/wrr_locality/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// LBSettings are a cluster's load-balancer settings, read from the legacy
// fields (lb_policy, *_lb_config, common_lb_config) or from the typed
// load_balancing_policy extension Envoy would use, whichever applies.
type LBSettings struct {
	Policy string
	Ring   hash.RingConfig
	Maglev hash.MaglevConfig
	// RingFrom and MaglevFrom are the messages that configured Ring and
	// Maglev (nil: defaults), so a rejected value is reported where it is
	// written.
	RingFrom, MaglevFrom proto.Message
	LeastRequest         lbmodel.LeastRequestConfig
	SlowStart            lbmodel.SlowStartConfig
	CSWRR                lbmodel.ClientSideWRRConfig
	LocalityWeighted     bool
	// HashBalanceFactor is hash_balance_factor (bounded load); 0: off.
	HashBalanceFactor uint32
	// ZoneAwareSet: zone_aware_lb_config is written (its defaults apply
	// even when it is not: zone-aware routing is on by default whenever a
	// local cluster is configured).
	ZoneAware    lbmodel.ZoneAwareConfig
	ZoneAwareSet bool
	// Typed is the decoded load_balancing_policy config Envoy uses, if any.
	Typed proto.Message
	// Rejected says why Envoy rejects the cluster at load ("" if not);
	// RejectedAt is the message whose position to report.
	Rejected   string
	RejectedAt proto.Message
	// RejectedWhy names the check: missing_policy, subset, common,
	// no_factory, wrr_child or wrr_no_child.
	RejectedWhy string
	// Pos is where these settings are written, found with the cluster's
	// other places (Entry.locate): a rejection is reported there.
	Pos SettingsPos
}

// settingsOf reads cl's load-balancer settings (Settings memoizes it).
func settingsOf(c *config.Config, cl *config.Cluster) LBSettings {
	p := cl.Proto
	s := LBSettings{
		Policy: PolicyName(p),
		Ring:   hash.DefaultRingConfig(),
		Maglev: hash.DefaultMaglevConfig(),
	}
	if p.GetLoadBalancingPolicy() != nil || p.GetLbPolicy() == clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG {
		s.typed(c, p)
		return s
	}
	s.legacy(p)
	return s
}

// legacy reads lb_policy's settings as LegacyLbPolicyConfigHelper converts
// them (the typed configs are built from the same fields).
func (s *LBSettings) legacy(p *clusterv3.Cluster) {
	if r := p.GetRingHashLbConfig(); r != nil {
		s.RingFrom = r
		if v := r.GetMinimumRingSize(); v != nil {
			s.Ring.MinRingSize = v.GetValue()
		}
		if v := r.GetMaximumRingSize(); v != nil {
			s.Ring.MaxRingSize = v.GetValue()
		}
		if r.GetHashFunction() == clusterv3.Cluster_RingHashLbConfig_MURMUR_HASH_2 {
			s.Ring.HashFunction = hash.HashMurmur2
		}
	}
	if v := p.GetMaglevLbConfig().GetTableSize(); v != nil {
		s.Maglev.TableSize = v.GetValue()
		s.MaglevFrom = p.GetMaglevLbConfig()
	}
	if lr := p.GetLeastRequestLbConfig(); lr != nil {
		if v := lr.GetChoiceCount(); v != nil {
			s.LeastRequest.ChoiceCount = v.GetValue()
		}
		if b := lr.GetActiveRequestBias(); b != nil {
			s.LeastRequest.ActiveRequestBias, s.LeastRequest.ActiveRequestBiasSet = b.GetDefaultValue(), true
		}
	}
	switch p.GetLbPolicy() {
	case clusterv3.Cluster_ROUND_ROBIN:
		if ss := p.GetRoundRobinLbConfig().GetSlowStartConfig(); ss != nil {
			s.SlowStart = slowStart(ss.GetSlowStartWindow(), ss.GetAggression(), ss.GetMinWeightPercent())
		}
	case clusterv3.Cluster_LEAST_REQUEST:
		if ss := p.GetLeastRequestLbConfig().GetSlowStartConfig(); ss != nil {
			s.SlowStart = slowStart(ss.GetSlowStartWindow(), ss.GetAggression(), ss.GetMinWeightPercent())
		}
	}
	common := p.GetCommonLbConfig()
	ch := common.GetConsistentHashingLbConfig()
	s.Ring.UseHostname = ch.GetUseHostnameForHashing()
	s.Maglev.UseHostname = s.Ring.UseHostname
	s.HashBalanceFactor = ch.GetHashBalanceFactor().GetValue()
	s.LocalityWeighted = common.GetLocalityWeightedLbConfig() != nil
	if z := common.GetZoneAwareLbConfig(); z != nil {
		s.applyZoneAware(z)
	}
}

// typed reads the load_balancing_policy entry Envoy uses, with its own
// settings, and the combinations ClusterInfoImpl::configureLbPolicies
// (upstream_impl.cc) rejects.
func (s *LBSettings) typed(c *config.Config, p *clusterv3.Cluster) {
	reject := func(why string, at proto.Message, format string, args ...any) {
		if s.Rejected == "" {
			s.Rejected, s.RejectedAt, s.RejectedWhy = fmt.Sprintf(format, args...), at, why
		}
	}
	if p.GetLoadBalancingPolicy() == nil {
		reject("missing_policy", p, "cluster: field load_balancing_policy need to be set (lb_policy is LOAD_BALANCING_POLICY_CONFIG)")
	}
	if p.GetLbSubsetConfig() != nil {
		reject("subset", p.GetLbSubsetConfig(), "cluster: load_balancing_policy cannot be combined with lb_subset_config")
	}
	if cm := p.GetCommonLbConfig(); cm.GetZoneAwareLbConfig() != nil || cm.GetLocalityWeightedLbConfig() != nil || cm.GetConsistentHashingLbConfig() != nil {
		reject("common", cm, "cluster: load_balancing_policy cannot be combined with partial fields (zone_aware_lb_config, locality_weighted_lb_config, consistent_hashing_lb_config) of common_lb_config")
	}
	pols := p.GetLoadBalancingPolicy().GetPolicies()
	i := typedIndex(p)
	if i < 0 {
		if p.GetLoadBalancingPolicy() != nil {
			reject("no_factory", p.GetLoadBalancingPolicy(), "cluster: didn't find a registered load balancer factory implementation for cluster %q", p.GetName())
		}
		return
	}
	m := c.Sources.Unpacked(pols[i].GetTypedExtensionConfig().GetTypedConfig())
	s.Typed = m
	s.typedEntry(c, m, 0)
}

// typedEntry reads one typed policy's settings. override_host delegates
// every request without an override host to its fallback_policy
// (OverrideHostLbConfig::create builds that policy's load balancer), whose
// first entry Envoy knows brings its settings, locality weighting included.
func (s *LBSettings) typedEntry(c *config.Config, m proto.Message, depth int) {
	switch t := m.(type) {
	case *overridehostv3.OverrideHost:
		for _, pol := range t.GetFallbackPolicy().GetPolicies() {
			if depth < 8 && EnvoyKnowsType(config.TypeName(pol.GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())) {
				s.typedEntry(c, c.Sources.Unpacked(pol.GetTypedExtensionConfig().GetTypedConfig()), depth+1)
				break
			}
		}
	case *ringv3.RingHash:
		s.RingFrom = t
		if v := t.GetMinimumRingSize(); v != nil {
			s.Ring.MinRingSize = v.GetValue()
		}
		if v := t.GetMaximumRingSize(); v != nil {
			s.Ring.MaxRingSize = v.GetValue()
		}
		if t.GetHashFunction() == ringv3.RingHash_MURMUR_HASH_2 {
			s.Ring.HashFunction = hash.HashMurmur2
		}
		s.Ring.UseHostname = t.GetUseHostnameForHashing() || t.GetConsistentHashingLbConfig().GetUseHostnameForHashing()
		s.LocalityWeighted = t.GetLocalityWeightedLbConfig() != nil
		// RingHashLoadBalancer: consistent_hashing_lb_config's factor, else
		// the deprecated top-level one.
		s.HashBalanceFactor = t.GetHashBalanceFactor().GetValue()
		if v := t.GetConsistentHashingLbConfig().GetHashBalanceFactor(); v != nil {
			s.HashBalanceFactor = v.GetValue()
		}
	case *maglevv3.Maglev:
		if v := t.GetTableSize(); v != nil {
			s.Maglev.TableSize = v.GetValue()
			s.MaglevFrom = t
		}
		s.Maglev.UseHostname = t.GetConsistentHashingLbConfig().GetUseHostnameForHashing()
		s.LocalityWeighted = t.GetLocalityWeightedLbConfig() != nil
		s.HashBalanceFactor = t.GetConsistentHashingLbConfig().GetHashBalanceFactor().GetValue()
	case *lrv3.LeastRequest:
		if v := t.GetChoiceCount(); v != nil {
			s.LeastRequest.ChoiceCount = v.GetValue()
		}
		if b := t.GetActiveRequestBias(); b != nil {
			s.LeastRequest.ActiveRequestBias, s.LeastRequest.ActiveRequestBiasSet = b.GetDefaultValue(), true
		}
		s.LeastRequest.FullScan = t.GetSelectionMethod() == lrv3.LeastRequest_FULL_SCAN || t.GetEnableFullScan().GetValue()
		s.typedSlowStart(t.GetSlowStartConfig())
		s.applyLocality(t.GetLocalityLbConfig())
	case *rrv3.RoundRobin:
		s.typedSlowStart(t.GetSlowStartConfig())
		s.applyLocality(t.GetLocalityLbConfig())
	case *randomv3.Random:
		s.applyLocality(t.GetLocalityLbConfig())
	case *cswrrv3.ClientSideWeightedRoundRobin:
		s.CSWRR = cswrrConfig(t)
		s.typedSlowStart(t.GetSlowStartConfig())
	case *wrrv3.WrrLocality:
		s.wrrLocality(c, t)
	}
}

// wrrLocality is WrrLocality's Factory::loadConfig: the first child Envoy
// knows must be client-side WRR; locality weighting is then on.
func (s *LBSettings) wrrLocality(c *config.Config, t *wrrv3.WrrLocality) {
	children := t.GetEndpointPickingPolicy().GetPolicies()
	types := make([]string, len(children))
	for i, ch := range children {
		types[i] = config.TypeName(ch.GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())
	}
	i, err := lbmodel.WrrLocalityChild(types, EnvoyKnowsType)
	if err != nil {
		at, why := proto.Message(t), "wrr_no_child"
		if i >= 0 {
			at, why = children[i], "wrr_child"
		}
		s.Rejected, s.RejectedAt, s.RejectedWhy = "wrr_locality: "+err.Error(), at, why
		return
	}
	s.LocalityWeighted = true
	if cs, ok := c.Sources.Unpacked(children[i].GetTypedExtensionConfig().GetTypedConfig()).(*cswrrv3.ClientSideWeightedRoundRobin); ok {
		s.CSWRR = cswrrConfig(cs)
		s.typedSlowStart(cs.GetSlowStartConfig())
	}
}

func cswrrConfig(t *cswrrv3.ClientSideWeightedRoundRobin) lbmodel.ClientSideWRRConfig {
	var out lbmodel.ClientSideWRRConfig
	if d := t.GetBlackoutPeriod(); d != nil {
		out.BlackoutPeriod, out.BlackoutSet = d.AsDuration(), true
	}
	if d := t.GetWeightExpirationPeriod(); d != nil {
		out.WeightExpirationPeriod, out.ExpirationSet = d.AsDuration(), true
	}
	out.ErrorUtilizationPenalty = 1.0 // proto default
	if v := t.GetErrorUtilizationPenalty(); v != nil {
		out.ErrorUtilizationPenalty = float64(v.GetValue())
	}
	return out
}

func (s *LBSettings) typedSlowStart(ss *commonv3.SlowStartConfig) {
	if ss != nil {
		s.SlowStart = slowStart(ss.GetSlowStartWindow(), ss.GetAggression(), ss.GetMinWeightPercent())
	}
}

// slowStart reads slow_start_config as EdfLoadBalancerBase's constructor
// does: the window in whole milliseconds, aggression's default_value,
// min_weight_percent (default 10).
func slowStart(win *durationpb.Duration, aggr *corev3.RuntimeDouble, minw *typev3.Percent) lbmodel.SlowStartConfig {
	out := lbmodel.SlowStartConfig{Window: win.AsDuration().Truncate(time.Millisecond)}
	if aggr != nil {
		out.Aggression, out.AggressionSet = aggr.GetDefaultValue(), true
	}
	if minw != nil {
		out.MinWeightPercent, out.MinWeightPercentSet = minw.GetValue(), true
	}
	return out
}

// applyLocality reads a typed policy's locality_lb_config.
func (s *LBSettings) applyLocality(l *commonv3.LocalityLbConfig) {
	if l == nil {
		return
	}
	s.LocalityWeighted = l.GetLocalityWeightedLbConfig() != nil
	if z := l.GetZoneAwareLbConfig(); z != nil {
		s.applyZoneAware(z)
		if fl := z.GetForceLocalZone(); fl != nil || z.GetForceLocalityDirectRouting() {
			s.ZoneAware.ForceLocalZone = true
			if v := fl.GetMinSize(); v != nil {
				s.ZoneAware.ForceLocalZoneMinSize, s.ZoneAware.ForceLocalZoneMinSizeSet = v.GetValue(), true
			}
		}
		s.ZoneAware.HealthyHostsWeight = z.GetLocalityBasis() == commonv3.LocalityLbConfig_ZoneAwareLbConfig_HEALTHY_HOSTS_WEIGHT
	}
}

// zoneAwareLbConfig is what common_lb_config's and locality_lb_config's
// zone-aware messages share, so both are read by one function.
type zoneAwareLbConfig interface {
	GetRoutingEnabled() *typev3.Percent
	GetMinClusterSize() *wrapperspb.UInt64Value
	GetFailTrafficOnPanic() bool
}

// applyZoneAware reads the zone-aware fields both forms have; z is not nil.
func (s *LBSettings) applyZoneAware(z zoneAwareLbConfig) {
	s.ZoneAwareSet = true
	if v := z.GetRoutingEnabled(); v != nil {
		s.ZoneAware.RoutingEnabled, s.ZoneAware.RoutingEnabledSet = v.GetValue(), true
	}
	if v := z.GetMinClusterSize(); v != nil {
		s.ZoneAware.MinClusterSize, s.ZoneAware.MinClusterSizeSet = v.GetValue(), true
	}
	s.ZoneAware.FailTrafficOnPanic = z.GetFailTrafficOnPanic()
}

// RejectedError is a cluster Envoy rejects at load (LBSettings.Rejected),
// reported at the offending field: an input error, not a result.
type RejectedError struct {
	Pos     config.Pos
	Cluster string
	Msg     string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("%s: cluster %q: Envoy rejects this cluster: %s", e.Pos, e.Cluster, e.Msg)
}
