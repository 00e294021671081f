package grpc

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/lbmodel"
)

// gRPC LB policy names, as they appear in gRPC service config JSON.
const (
	RoundRobin     = "round_robin"
	WrrLocality    = "xds_wrr_locality_experimental"
	RingHash       = "ring_hash_experimental"
	LeastRequest   = "least_request_experimental"
	WeightedRR     = "weighted_round_robin"
	PickFirst      = "pick_first"
	DefaultRingCap = 4096 // grpc-go GRPC_RING_HASH_CAP default, C-core channel arg default
	ringUpperBound = 8 * 1024 * 1024
	maxPolicyDepth = 16
)

// Typed load_balancing_policy extensions gRPC converts (A52); every other
// type is skipped.
const (
	TypeRoundRobin   = "envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin"
	TypeWrrLocality  = "envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality"
	TypeRingHash     = "envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash"
	TypeLeastRequest = "envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest"
	TypeClientWRR    = "envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin"
	TypePickFirst    = "envoy.extensions.load_balancing_policies.pick_first.v3.PickFirst"
)

// RingHashParams are ring hash settings from either the enum path
// (Cluster.ring_hash_lb_config) or the RingHash extension. nil sizes are
// unset. Function is the proto enum name; "" is the proto default
// (XX_HASH for the enum path, DEFAULT_HASH for the extension).
type RingHashParams struct {
	HashFunction             string
	MinRingSize, MaxRingSize *uint64
}

// TypedPolicy is one entry of load_balancing_policy.policies.
type TypedPolicy struct {
	Type        string // full message name; a type.googleapis.com/ prefix is allowed
	RingHash    RingHashParams
	ChoiceCount *uint32 // LeastRequest
	// EndpointPicking is WrrLocality.endpoint_picking_policy.policies.
	EndpointPicking []TypedPolicy
}

// PolicyInput is a cluster's LB configuration as gRPC reads it.
type PolicyInput struct {
	LBPolicy            string // Cluster.lb_policy enum name; "" = ROUND_ROBIN
	RingHash            RingHashParams
	LeastRequestChoice  *uint32
	LoadBalancingPolicy []TypedPolicy // nil when the field is absent
	RingHashCap         uint64        // local cap; 0 = 4096
}

// Policy is the converted gRPC LB policy.
type Policy struct {
	Name  string
	Child *Policy // xds_wrr_locality's child
	// MinRingSize/MaxRingSize are effective ring bounds after defaults and
	// the local cap; ChoiceCount is least_request's clamped count.
	MinRingSize, MaxRingSize uint64
	ChoiceCount              uint32
	// DeferredError: grpc-go ACKs the resource but the cluster fails when
	// the balancer parses its config (enum RING_HASH with bad sizes).
	DeferredError string
}

// LocalityLevel reports whether locality weights shape traffic
// (grpc.md §3.4): xds_wrr_locality does; ring_hash folds them into endpoint
// weights; bare policies ignore them.
func (p Policy) LocalityLevel() bool { return p.Name == WrrLocality }

// Leaf is the endpoint-picking policy (the wrr_locality child, or p itself).
func (p Policy) Leaf() Policy {
	if p.Child != nil {
		return p.Child.Leaf()
	}
	return p
}

// SelectPolicy converts a cluster's lb_policy / load_balancing_policy to
// the gRPC policy, or returns the NACK error (grpc.md §3). grpc-go:
// xdsresource/unmarshal_cds.go validateClusterAndConstructClusterUpdate
// checks the enum first (ROUND_ROBIN, RING_HASH, LEAST_REQUEST only) and
// then prefers load_balancing_policy; C-core (xds_cluster_parser.cc) ignores
// lb_policy when load_balancing_policy is present and does not support
// LEAST_REQUEST. Typed policies follow xdslbregistry (A52): the first
// convertible entry wins, unknown types are skipped.
func SelectPolicy(in PolicyInput, impl Impl) (Policy, error) {
	ringCap := in.RingHashCap
	if ringCap == 0 {
		ringCap = DefaultRingCap
	}
	enum := in.LBPolicy
	if enum == "" {
		enum = "ROUND_ROBIN"
	}
	if impl == CoreImpl && in.LoadBalancingPolicy != nil {
		return convertTyped(in.LoadBalancingPolicy, impl, ringCap, 0)
	}
	var fromEnum Policy
	switch enum {
	case "ROUND_ROBIN":
		fromEnum = Policy{Name: WrrLocality, Child: &Policy{Name: RoundRobin}}
	case "RING_HASH":
		if h := in.RingHash.HashFunction; h != "" && h != "XX_HASH" {
			return Policy{}, fmt.Errorf("ring_hash_lb_config: unsupported hash_function %s", h)
		}
		p, err := ringParams(in.RingHash, impl == CoreImpl, ringCap)
		if err != nil {
			if impl == CoreImpl {
				return Policy{}, err
			}
			p.DeferredError = err.Error() // grpc-go: ACK, cluster fails later
		}
		fromEnum = p
	case "LEAST_REQUEST":
		if impl == CoreImpl {
			return Policy{}, fmt.Errorf("LB policy is not supported: LEAST_REQUEST")
		}
		p, err := leastRequest(in.LeastRequestChoice)
		if err != nil {
			return Policy{}, err
		}
		fromEnum = p
	default:
		if impl == GoImpl || in.LoadBalancingPolicy == nil {
			return Policy{}, fmt.Errorf("unexpected lbPolicy %s", enum)
		}
	}
	if in.LoadBalancingPolicy != nil {
		return convertTyped(in.LoadBalancingPolicy, impl, ringCap, 0)
	}
	return fromEnum, nil
}

func convertTyped(list []TypedPolicy, impl Impl, ringCap uint64, depth int) (Policy, error) {
	if depth >= maxPolicyDepth {
		return Policy{}, fmt.Errorf("load_balancing_policy: exceeds max depth of %d", maxPolicyDepth)
	}
	for _, tp := range list {
		switch strings.TrimPrefix(tp.Type, "type.googleapis.com/") {
		case TypeRoundRobin:
			return Policy{Name: RoundRobin}, nil
		case TypeWrrLocality:
			child, err := convertTyped(tp.EndpointPicking, impl, ringCap, depth+1)
			if err != nil {
				return Policy{}, err
			}
			return Policy{Name: WrrLocality, Child: &child}, nil
		case TypeRingHash:
			h := tp.RingHash.HashFunction
			ok := h == "XX_HASH" || (impl == CoreImpl && (h == "" || h == "DEFAULT_HASH"))
			if !ok {
				if h == "" {
					h = "DEFAULT_HASH"
				}
				return Policy{}, fmt.Errorf("ring_hash: unsupported hash_function %s", h)
			}
			return ringParams(tp.RingHash, impl == CoreImpl, ringCap)
		case TypeLeastRequest:
			if impl == CoreImpl {
				continue // not registered in C-core: skipped
			}
			return leastRequest(tp.ChoiceCount)
		case TypeClientWRR:
			return Policy{Name: WeightedRR}, nil
		case TypePickFirst:
			return Policy{Name: PickFirst}, nil
		}
	}
	return Policy{}, fmt.Errorf("load_balancing_policy: no supported policy found")
}

// ringParams applies ring size defaults and checks (grpc-go
// balancer/ringhash/config.go parseConfig; xDS max default 8M, then both
// bounds clamped to the local cap). strict is C-core's CDS check: 0 and
// values above 8M are errors.
func ringParams(r RingHashParams, strict bool, ringCap uint64) (Policy, error) {
	lo, hi := uint64(1024), uint64(ringUpperBound)
	if r.MinRingSize != nil && (*r.MinRingSize != 0 || strict) {
		lo = *r.MinRingSize
	}
	if r.MaxRingSize != nil && (*r.MaxRingSize != 0 || strict) {
		hi = *r.MaxRingSize
	}
	p := Policy{Name: RingHash, MinRingSize: min(lo, ringCap), MaxRingSize: min(hi, ringCap)}
	switch {
	case lo == 0 || hi == 0:
		return p, fmt.Errorf("ring_hash: minimum_ring_size and maximum_ring_size must be in [1, %d]", ringUpperBound)
	case lo > ringUpperBound:
		return p, fmt.Errorf("min_ring_size value of %d is greater than max supported value %d for this field", lo, ringUpperBound)
	case hi > ringUpperBound:
		return p, fmt.Errorf("max_ring_size value of %d is greater than max supported value %d for this field", hi, ringUpperBound)
	case lo > hi:
		return p, fmt.Errorf("min %d is greater than max %d", lo, hi)
	}
	return p, nil
}

// leastRequest: choice_count default 2, below 2 NACKed, above 10 clamped
// (grpc-go unmarshal_cds / xdslbregistry converter, A48).
func leastRequest(choice *uint32) (Policy, error) {
	c := uint32(2)
	if choice != nil {
		c = *choice
	}
	if c < 2 {
		return Policy{}, fmt.Errorf("least_request: choice_count %d is less than 2", c)
	}
	return Policy{Name: LeastRequest, ChoiceCount: min(c, 10)}, nil
}

// KeepsEndpoint reports whether gRPC routes to an endpoint with this EDS
// health_status: only HEALTHY and UNKNOWN (grpc-go configbuilder filter,
// C-core XdsHealthStatus). UNHEALTHY, TIMEOUT, DEGRADED and DRAINING are
// dropped; C-core keeps DRAINING only for session affinity
// (KeepsForSessionAffinity).
func KeepsEndpoint(s lbmodel.HealthStatus) bool {
	return s == lbmodel.StatusHealthy || s == lbmodel.StatusUnknown
}

// KeepsForSessionAffinity: C-core's xds_override_host keeps DRAINING
// endpoints reachable through a session cookie (A55).
func KeepsForSessionAffinity(s lbmodel.HealthStatus, impl Impl) bool {
	return KeepsEndpoint(s) || (impl == CoreImpl && s == lbmodel.StatusDraining)
}
