package model

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	commonv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/common/v3"
	lrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/least_request/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	ringv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	rrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/round_robin/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
	"google.golang.org/protobuf/proto"
)

// LBSettings are a cluster's load-balancer settings, read from the legacy
// fields (lb_policy, *_lb_config, common_lb_config) or from the typed
// load_balancing_policy extension Envoy would use, whichever applies.
type LBSettings struct {
	Policy           string
	Ring             lbmodel.RingConfig
	Maglev           lbmodel.MaglevConfig
	LeastRequest     lbmodel.LeastRequestConfig
	LocalityWeighted bool
	// ZoneAwareSet: zone_aware_lb_config is written (its defaults apply
	// even when it is not: zone-aware routing is on by default whenever a
	// local cluster is configured).
	ZoneAware    lbmodel.ZoneAwareConfig
	ZoneAwareSet bool
	// Typed is the decoded load_balancing_policy config Envoy uses, if any.
	Typed proto.Message
}

// Settings reads cl's load-balancer settings.
func Settings(c *config.Config, cl *config.Cluster) LBSettings {
	p := cl.Proto
	s := LBSettings{
		Policy: PolicyName(p),
		Ring:   lbmodel.DefaultRingConfig(),
		Maglev: lbmodel.DefaultMaglevConfig(),
	}
	// Legacy fields.
	if r := p.GetRingHashLbConfig(); r != nil {
		if v := r.GetMinimumRingSize(); v != nil {
			s.Ring.MinRingSize = v.GetValue()
		}
		if v := r.GetMaximumRingSize(); v != nil {
			s.Ring.MaxRingSize = v.GetValue()
		}
		if r.GetHashFunction() == clusterv3.Cluster_RingHashLbConfig_MURMUR_HASH_2 {
			s.Ring.HashFunction = lbmodel.HashMurmur2
		}
	}
	if v := p.GetMaglevLbConfig().GetTableSize(); v != nil {
		s.Maglev.TableSize = v.GetValue()
	}
	if lr := p.GetLeastRequestLbConfig(); lr != nil {
		if v := lr.GetChoiceCount(); v != nil {
			s.LeastRequest.ChoiceCount = v.GetValue()
		}
		if b := lr.GetActiveRequestBias(); b != nil {
			s.LeastRequest.ActiveRequestBias, s.LeastRequest.ActiveRequestBiasSet = b.GetDefaultValue(), true
		}
	}
	common := p.GetCommonLbConfig()
	s.Ring.UseHostname = common.GetConsistentHashingLbConfig().GetUseHostnameForHashing()
	s.Maglev.UseHostname = s.Ring.UseHostname
	s.LocalityWeighted = common.GetLocalityWeightedLbConfig() != nil
	if z := common.GetZoneAwareLbConfig(); z != nil {
		s.ZoneAwareSet = true
		if v := z.GetRoutingEnabled(); v != nil {
			s.ZoneAware.RoutingEnabled, s.ZoneAware.RoutingEnabledSet = v.GetValue(), true
		}
		if v := z.GetMinClusterSize(); v != nil {
			s.ZoneAware.MinClusterSize, s.ZoneAware.MinClusterSizeSet = v.GetValue(), true
		}
		s.ZoneAware.FailTrafficOnPanic = z.GetFailTrafficOnPanic()
	}

	// The typed policy Envoy picks (the first it supports) replaces them.
	for _, pol := range p.GetLoadBalancingPolicy().GetPolicies() {
		m := c.Sources.Unpacked(pol.GetTypedExtensionConfig().GetTypedConfig())
		if m == nil {
			continue
		}
		s.Typed = m
		switch t := m.(type) {
		case *ringv3.RingHash:
			s.Ring = lbmodel.DefaultRingConfig()
			if v := t.GetMinimumRingSize(); v != nil {
				s.Ring.MinRingSize = v.GetValue()
			}
			if v := t.GetMaximumRingSize(); v != nil {
				s.Ring.MaxRingSize = v.GetValue()
			}
			if t.GetHashFunction() == ringv3.RingHash_MURMUR_HASH_2 {
				s.Ring.HashFunction = lbmodel.HashMurmur2
			}
			s.Ring.UseHostname = t.GetUseHostnameForHashing() || t.GetConsistentHashingLbConfig().GetUseHostnameForHashing()
			s.LocalityWeighted = t.GetLocalityWeightedLbConfig() != nil
		case *maglevv3.Maglev:
			s.Maglev = lbmodel.DefaultMaglevConfig()
			if v := t.GetTableSize(); v != nil {
				s.Maglev.TableSize = v.GetValue()
			}
			s.Maglev.UseHostname = t.GetConsistentHashingLbConfig().GetUseHostnameForHashing()
			s.LocalityWeighted = t.GetLocalityWeightedLbConfig() != nil
		case *lrv3.LeastRequest:
			s.LeastRequest = lbmodel.LeastRequestConfig{}
			if v := t.GetChoiceCount(); v != nil {
				s.LeastRequest.ChoiceCount = v.GetValue()
			}
			if b := t.GetActiveRequestBias(); b != nil {
				s.LeastRequest.ActiveRequestBias, s.LeastRequest.ActiveRequestBiasSet = b.GetDefaultValue(), true
			}
			s.LeastRequest.FullScan = t.GetSelectionMethod() == lrv3.LeastRequest_FULL_SCAN || t.GetEnableFullScan().GetValue()
			s.applyLocality(t.GetLocalityLbConfig())
		case *rrv3.RoundRobin:
			s.applyLocality(t.GetLocalityLbConfig())
		}
		break
	}
	return s
}

// applyLocality reads a typed policy's locality_lb_config, which replaces
// common_lb_config's locality settings.
func (s *LBSettings) applyLocality(l *commonv3.LocalityLbConfig) {
	if l == nil {
		return
	}
	s.LocalityWeighted = l.GetLocalityWeightedLbConfig() != nil
	s.ZoneAwareSet = false
	s.ZoneAware = lbmodel.ZoneAwareConfig{}
	if z := l.GetZoneAwareLbConfig(); z != nil {
		s.ZoneAwareSet = true
		if v := z.GetRoutingEnabled(); v != nil {
			s.ZoneAware.RoutingEnabled, s.ZoneAware.RoutingEnabledSet = v.GetValue(), true
		}
		if v := z.GetMinClusterSize(); v != nil {
			s.ZoneAware.MinClusterSize, s.ZoneAware.MinClusterSizeSet = v.GetValue(), true
		}
		s.ZoneAware.FailTrafficOnPanic = z.GetFailTrafficOnPanic()
		if fl := z.GetForceLocalZone(); fl != nil || z.GetForceLocalityDirectRouting() {
			s.ZoneAware.ForceLocalZone = true
			if v := fl.GetMinSize(); v != nil {
				s.ZoneAware.ForceLocalZoneMinSize, s.ZoneAware.ForceLocalZoneMinSizeSet = v.GetValue(), true
			}
		}
		s.ZoneAware.HealthyHostsWeight = z.GetLocalityBasis() == commonv3.LocalityLbConfig_ZoneAwareLbConfig_HEALTHY_HOSTS_WEIGHT
	}
}
