package model

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
)

// PerRequestHosts names the cluster type of a cluster whose hosts Envoy
// makes per request (no configured host set to balance over, so no
// priority load, panic or failure budget applies), or "" for others:
// ORIGINAL_DST (original_dst_cluster.cc) and the dynamic forward proxy
// (envoy.clusters.dynamic_forward_proxy, cluster.cc), legacy type or
// cluster_type extension.
func PerRequestHosts(c *clusterv3.Cluster) string {
	switch c.GetClusterType().GetName() {
	case "envoy.cluster.original_dst":
		return "ORIGINAL_DST"
	case "envoy.clusters.dynamic_forward_proxy":
		return "envoy.clusters.dynamic_forward_proxy"
	case "":
		if c.GetType() == clusterv3.Cluster_ORIGINAL_DST {
			return "ORIGINAL_DST"
		}
	}
	return ""
}

// OriginalDstHeader is the request header an ORIGINAL_DST cluster takes
// the destination from, or "" when it uses the connection's original
// destination (OriginalDstLbConfig: http_header_name, default
// x-envoy-original-dst-host, read only with use_http_header).
func OriginalDstHeader(c *clusterv3.Cluster) string {
	o := c.GetOriginalDstLbConfig()
	if !o.GetUseHttpHeader() {
		return ""
	}
	if h := o.GetHttpHeaderName(); h != "" {
		return h
	}
	return "x-envoy-original-dst-host"
}
