package model

import (
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// typedPrefix is the package prefix of Envoy's load-balancing extensions.
const typedPrefix = "envoy.extensions.load_balancing_policies."

// envoyPolicies are the extension directories under Envoy's
// source/extensions/load_balancing_policies/ that register a
// TypedLoadBalancerFactory. pick_first and random_subsetting have protos but
// no Envoy factory (gRPC only), so Envoy skips them in a policy list.
var envoyPolicies = map[string]bool{
	"client_side_weighted_round_robin": true, "cluster_provided": true,
	"deterministic_aperture": true, "dynamic_forwarding": true, "dynamic_modules": true,
	"header_order": true, "least_request": true, "load_aware_locality": true,
	"maglev": true, "original_dst": true, "override_host": true, "peak_ewma": true,
	"quota_aware": true, "random": true, "rendezvous_hash": true, "ring_hash": true,
	"round_robin": true, "subset": true, "wrr_locality": true,
}

// TypedPolicyName is the name lbctl shows for a load_balancing_policy
// typed_config type ("…round_robin.v3.RoundRobin" → "ROUND_ROBIN"), and
// whether Envoy has a factory for it.
func TypedPolicyName(typeName string) (string, bool) {
	rest, ok := strings.CutPrefix(typeName, typedPrefix)
	if !ok {
		return typeName, false
	}
	dir, _, _ := strings.Cut(rest, ".")
	return strings.ToUpper(dir), envoyPolicies[dir]
}

// EnvoyKnowsType reports whether Envoy has a load-balancer factory for a
// typed_config type (getAndCheckFactory with is_optional, upstream_impl.cc).
func EnvoyKnowsType(typeName string) bool {
	_, ok := TypedPolicyName(typeName)
	return ok
}

// typedIndex is the load_balancing_policy entry Envoy uses:
// ClusterInfoImpl::configureLbPolicies takes the first whose factory it
// has. -1 when the list is empty or no entry is known.
func typedIndex(p *clusterv3.Cluster) int {
	for i, pol := range p.GetLoadBalancingPolicy().GetPolicies() {
		if EnvoyKnowsType(config.TypeName(pol.GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())) {
			return i
		}
	}
	return -1
}

// PolicyName is the cluster's effective LB policy: with load_balancing_policy
// set, the first entry Envoy knows (ClusterInfoImpl constructor: the typed
// list wins over lb_policy), else the lb_policy enum name.
func PolicyName(p *clusterv3.Cluster) string {
	pols := p.GetLoadBalancingPolicy().GetPolicies()
	if i := typedIndex(p); i >= 0 {
		n, _ := TypedPolicyName(config.TypeName(pols[i].GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl()))
		return n
	}
	if len(pols) > 0 {
		return config.TypeName(pols[0].GetTypedExtensionConfig().GetTypedConfig().GetTypeUrl())
	}
	return p.GetLbPolicy().String()
}

// RequestTimePolicy describes policies whose host is chosen per request
// from something config does not hold; "" for policies lbctl models.
func RequestTimePolicy(policy string) string {
	switch policy {
	case "CLUSTER_PROVIDED":
		return "the cluster type picks the host itself (e.g. ORIGINAL_DST uses the connection's original destination, a dynamic forward proxy the request's host)"
	case "ORIGINAL_DST":
		return "the host is the request's original destination address (or the x-envoy-original-dst-host header / metadata key when configured), created on demand"
	case "OVERRIDE_HOST":
		return "a host named by request headers or metadata (e.g. a session or an external picker) is used when present and healthy; otherwise its fallback policy picks"
	case "DYNAMIC_FORWARDING":
		return "the host is named per request in metadata by an external endpoint picker; otherwise its fallback policy picks"
	case "DYNAMIC_MODULES":
		return "a dynamically loaded module chooses the host; its logic is not in the config"
	case "SUBSET":
		return "hosts are chosen by metadata subset per request (see lbctl subset)"
	case "LOAD_AWARE_LOCALITY", "PEAK_EWMA", "QUOTA_AWARE":
		return "the choice depends on load measured at run time (latency, utilization or quota), which the config does not hold"
	case "DETERMINISTIC_APERTURE", "RENDEZVOUS_HASH", "HEADER_ORDER":
		return "the choice depends on per-request or per-instance inputs (hash keys, headers, instance position) that lbctl does not model"
	}
	return ""
}
