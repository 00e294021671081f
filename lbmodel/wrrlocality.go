package lbmodel

import "errors"

// ClientSideWRRType is the typed_config type of client_side_weighted_round_robin.
const ClientSideWRRType = "envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin"

// Envoy's wrr_locality errors (wrr_locality/config.h, Factory::loadConfig).
var (
	ErrWrrLocalityChild   = errors.New("Currently WrrLocalityLoadBalancer only supports ClientSideWeightedRoundRobinLoadBalancer as its endpoint picking policy.")
	ErrWrrLocalityNoChild = errors.New("No supported endpoint picking policy.")
)

// WrrLocalityChild is Factory::loadConfig's choice among
// endpoint_picking_policy.policies, given each entry's typed_config type
// and whether this Envoy has a factory for it: the first known entry is
// used, and it must be client-side WRR, else Envoy rejects the cluster.
// It returns that entry's index.
func WrrLocalityChild(types []string, known func(string) bool) (int, error) {
	for i, t := range types {
		if !known(t) {
			continue
		}
		if t != ClientSideWRRType {
			return i, ErrWrrLocalityChild
		}
		return i, nil
	}
	return -1, ErrWrrLocalityNoChild
}

// WrrLocalityInput turns a cluster into wrr_locality's model
// (WrrLocalityLoadBalancer::WorkerLocalLbFactory::create): the CSWRR worker
// with common_lb_config plus locality_weighted_lb_config, which replaces
// any zone_aware_lb_config in that oneof, and the client-side weights
// (slow start, a CSWRR setting, is kept).
func WrrLocalityInput(c ClusterInput, weights []uint32) ClusterInput {
	c.LocalityWeighted = true
	c.ZoneAware = ZoneAwareConfig{}
	c.LB = HostLB{Policy: PolicyClientSideWRR, ClientSideWeights: weights, SlowStart: c.LB.SlowStart, HostAges: c.LB.HostAges}
	return c
}
