package lint

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	ringhashv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Ring hash defaults (ring_hash_lb.cc, RingHashLoadBalancer): minimum 1024,
// maximum 8M entries.
const (
	defaultMinRing = 1024
	defaultMaxRing = 8388608
)

// ringSizes is one ring hash configuration's effective sizes and where
// they are written.
type ringSizes struct {
	msg      proto.Message // the RingHashLbConfig or typed RingHash
	min, max uint64
}

// rings lists the cluster's ring hash configurations: the legacy block when
// lb_policy is RING_HASH (and no typed policy overrides it), and every
// typed RingHash entry.
func (p *Pass) rings(c *clusterv3.Cluster) []ringSizes {
	var out []ringSizes
	if c.GetLoadBalancingPolicy() == nil && c.GetLbPolicy() == clusterv3.Cluster_RING_HASH {
		r := ringSizes{msg: c.GetRingHashLbConfig(), min: defaultMinRing, max: defaultMaxRing}
		if v := c.GetRingHashLbConfig().GetMinimumRingSize(); v != nil {
			r.min = v.GetValue()
		}
		if v := c.GetRingHashLbConfig().GetMaximumRingSize(); v != nil {
			r.max = v.GetValue()
		}
		if r.msg == nil || c.GetRingHashLbConfig() == nil {
			r.msg = c
		}
		out = append(out, r)
	}
	for _, m := range p.Typed(c) {
		if rh, ok := m.(*ringhashv3.RingHash); ok {
			r := ringSizes{msg: rh, min: defaultMinRing, max: defaultMaxRing}
			if v := rh.GetMinimumRingSize(); v != nil {
				r.min = v.GetValue()
			}
			if v := rh.GetMaximumRingSize(); v != nil {
				r.max = v.GetValue()
			}
			out = append(out, r)
		}
	}
	return out
}

// maglevTables lists the cluster's configured Maglev table sizes (legacy
// under lb_policy MAGLEV, and typed Maglev entries) with their message.
func (p *Pass) maglevTables(c *clusterv3.Cluster) (sizes []uint64, msgs []proto.Message) {
	if c.GetLoadBalancingPolicy() == nil && c.GetLbPolicy() == clusterv3.Cluster_MAGLEV {
		if v := c.GetMaglevLbConfig().GetTableSize(); v != nil {
			sizes, msgs = append(sizes, v.GetValue()), append(msgs, c.GetMaglevLbConfig())
		}
	}
	for _, m := range p.Typed(c) {
		if mg, ok := m.(*maglevv3.Maglev); ok && mg.GetTableSize() != nil {
			sizes, msgs = append(sizes, mg.GetTableSize().GetValue()), append(msgs, mg)
		}
	}
	return sizes, msgs
}

// assignments calls f for every loaded cluster with endpoints.
func (p *Pass) assignments(f func(cl *config.Cluster, a *endpointv3.ClusterLoadAssignment)) {
	for _, cl := range p.Cfg.Clusters {
		if cl.Assignment != nil {
			f(cl, cl.Assignment)
		}
	}
}

// pos is shorthand for the position of field of m.
func (p *Pass) pos(m proto.Message, field string) config.Pos {
	return p.Cfg.Sources.FieldPos(m, field)
}

// policyOf is the effective policy name for messages.
func policyOf(c *clusterv3.Cluster) string { return model.PolicyName(c) }

// policyField is the field that chooses the cluster's policy.
func policyField(c *clusterv3.Cluster) string {
	if c.GetLoadBalancingPolicy() != nil {
		return "load_balancing_policy"
	}
	return "lb_policy"
}

func protoName(s string) protoreflect.Name { return protoreflect.Name(s) }

// clusterHashPolicy reports a cluster-level hash policy: a typed
// RingHash/Maglev consistent_hashing_lb_config.hash_policy (the legacy
// common_lb_config block has no hash_policy).
func clusterHashPolicy(p *Pass, c *clusterv3.Cluster) bool {
	for _, m := range p.Typed(c) {
		switch t := m.(type) {
		case *ringhashv3.RingHash:
			if len(t.GetConsistentHashingLbConfig().GetHashPolicy()) > 0 {
				return true
			}
		case *maglevv3.Maglev:
			if len(t.GetConsistentHashingLbConfig().GetHashPolicy()) > 0 {
				return true
			}
		}
	}
	return false
}

// localityWeighted reports whether Envoy honours locality weights for the
// cluster: model.Settings' LocalityWeighted, which reads lb_policy's
// common_lb_config or the load_balancing_policy entry Envoy uses (through
// override_host's fallback_policy and wrr_locality), as the reports do.
func (p *Pass) localityWeighted(cl *config.Cluster) bool {
	return model.Settings(p.Cfg, cl).LocalityWeighted
}
