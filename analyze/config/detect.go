package config

import "github.com/lbctl/lbctl/analyze/config/parse"

// kindEgctl is `egctl x translate` output: one config dump per gateway.
const kindEgctl = "egctl"

// detectKind guesses a document's kind from its top-level keys, accepting
// snake_case and camelCase spellings. "list" is a sequence whose items are
// detected one by one, "typed" a resource carrying its own "@type".
func detectKind(n node) string {
	switch n.Kind() {
	case sequenceNode:
		return "list"
	case mappingNode:
	default:
		return ""
	}
	has := func(keys ...string) bool {
		v, _ := parse.MapGet(n, keys...)
		return v.OK()
	}
	switch {
	case has("@type"):
		return "typed"
	case isBootstrapDump(n):
		return kindBootstrapDump
	case egctlDumps(n) != nil:
		return kindEgctl
	case isKubernetes(n):
		return kindKubernetes
	case isResourceMap(n):
		return kindResourceMap
	case wrapped(n):
		return "typed"
	case has("configs"):
		return KindConfigDump
	case isClientStatus(n):
		return KindClientStatus
	case has("cluster_statuses", "clusterStatuses"):
		return KindAdmin
	case has("resources"):
		return KindDiscovery
	case has("static_resources", "staticResources", "dynamic_resources", "dynamicResources",
		"cluster_manager", "clusterManager", "layered_runtime", "layeredRuntime", "admin", "node"):
		return KindBootstrap
	case has("cluster_name", "clusterName") && !has("type", "lb_policy", "lbPolicy"):
		return KindEndpoints
	case has("endpoints", "named_endpoints", "namedEndpoints") && !has("name", "type", "lb_policy", "lbPolicy"):
		// A ClusterLoadAssignment without its cluster_name: read it, so
		// that the missing name is reported, not "not an Envoy resource".
		return KindEndpoints
	case has("virtual_hosts", "virtualHosts"):
		return KindRoutes
	case has("filter_chains", "filterChains", "listener_filters", "listenerFilters", "api_listener", "apiListener") || has("address") && has("name") && !has("type", "lb_policy", "lbPolicy", "load_assignment", "loadAssignment", "connect_timeout", "connectTimeout"):
		return KindListener
	case has("clusters") && !has("name"):
		return KindClusters
	case has("name"):
		return schemaKind(n)
	}
	return ""
}

// wrapped reports a config_dump entry saved on its own, such as
// {version_info, cluster: {"@type": ...}, last_updated}.
func wrapped(n node) bool {
	for _, key := range []string{"cluster", "listener", "route_config", "endpoint_config"} {
		if v, _ := parse.MapGet(n, key); v.OK() {
			if t, _ := parse.MapGet(v, "@type"); t.OK() {
				return true
			}
		}
	}
	return false
}

// egctlDumps returns the per-gateway config dumps of `egctl x translate`
// output, {xds: {<namespace>/<gateway>: <config dump or dump section>}},
// or nil for another shape. Other top-level keys of that output are
// Gateway API resources and Envoy Gateway's IR, not Envoy config.
func egctlDumps(n node) []node {
	if !n.OK() || n.Kind() != mappingNode {
		return nil
	}
	x, _ := parse.MapGet(n, "xds")
	if x = parse.Resolve(x); !x.OK() {
		return egctlProxyDumps(n)
	}
	if x.Kind() != mappingNode || x.Len() == 0 {
		return nil
	}
	var out []node
	for i := 1; i < x.Len(); i += 2 {
		v := parse.Resolve(x.Child(i))
		if v.Kind() != mappingNode {
			return nil
		}
		out = append(out, v)
	}
	return out
}
