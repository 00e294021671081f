package model

import (
	xdstypev3 "github.com/cncf/xds/go/xds/type/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	lrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/least_request/v3"
	ringv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	wrrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/wrr_locality/v3"
	httpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// GRPCPolicyInput reads a cluster's LB configuration the way gRPC's CDS
// parser does (grpc-go xdsresource/unmarshal_cds.go, C-core
// xds_cluster_parser.cc): the lb_policy enum with its ring hash / least
// request configs, and load_balancing_policy converted entry by entry.
func GRPCPolicyInput(c *config.Config, p *clusterv3.Cluster) grpc.PolicyInput {
	in := grpc.PolicyInput{LBPolicy: p.GetLbPolicy().String()}
	if r := p.GetRingHashLbConfig(); r != nil {
		in.RingHash.HashFunction = r.GetHashFunction().String()
		if v := r.GetMinimumRingSize(); v != nil {
			x := v.GetValue()
			in.RingHash.MinRingSize = &x
		}
		if v := r.GetMaximumRingSize(); v != nil {
			x := v.GetValue()
			in.RingHash.MaxRingSize = &x
		}
	}
	if v := p.GetLeastRequestLbConfig().GetChoiceCount(); v != nil {
		x := v.GetValue()
		in.LeastRequestChoice = &x
	}
	if lbp := p.GetLoadBalancingPolicy(); lbp != nil {
		in.LoadBalancingPolicy = grpcTypedList(c, lbp, 0)
	}
	return in
}

// grpcTypedList converts load_balancing_policy.policies; nesting is cut at
// 17 levels so the converter (which fails at 16) sees the excess.
func grpcTypedList(c *config.Config, lbp *clusterv3.LoadBalancingPolicy, depth int) []grpc.TypedPolicy {
	out := []grpc.TypedPolicy{}
	if depth > 17 {
		return out
	}
	for _, pol := range lbp.GetPolicies() {
		a := pol.GetTypedExtensionConfig().GetTypedConfig()
		tp := grpc.TypedPolicy{Type: config.TypeName(a.GetTypeUrl())}
		switch m := c.Sources.Unpacked(a).(type) {
		case *xdstypev3.TypedStruct:
			// gRPC's registry names a TypedStruct by the type it wraps.
			tp.Type = config.TypeName(m.GetTypeUrl())
		case *ringv3.RingHash:
			// DEFAULT_HASH is the proto default: gRPC tells it apart from XX_HASH.
			tp.RingHash.HashFunction = m.GetHashFunction().String()
			if v := m.GetMinimumRingSize(); v != nil {
				x := v.GetValue()
				tp.RingHash.MinRingSize = &x
			}
			if v := m.GetMaximumRingSize(); v != nil {
				x := v.GetValue()
				tp.RingHash.MaxRingSize = &x
			}
		case *lrv3.LeastRequest:
			if v := m.GetChoiceCount(); v != nil {
				x := v.GetValue()
				tp.ChoiceCount = &x
			}
		case *wrrv3.WrrLocality:
			tp.EndpointPicking = grpcTypedList(c, m.GetEndpointPickingPolicy(), depth+1)
		}
		out = append(out, tp)
	}
	return out
}

// IdleTimeoutInput reads Cluster.upstream_config as gRFC A75 does, for
// grpc.SessionIdleTimeout.
func IdleTimeoutInput(p *clusterv3.Cluster) grpc.IdleTimeoutInput {
	in := grpc.IdleTimeoutInput{}
	uc := p.GetUpstreamConfig()
	if uc == nil {
		return in
	}
	in.UpstreamConfigSet = true
	a := uc.GetTypedConfig()
	in.TypeURL = a.GetTypeUrl()
	var opts httpv3.HttpProtocolOptions
	if config.TypeName(a.GetTypeUrl()) != HTTPProtocolOptionsType || a.UnmarshalTo(&opts) != nil {
		return in
	}
	if common := opts.GetCommonHttpProtocolOptions(); common != nil {
		in.CommonHTTPOptionsSet = true
		if d := common.GetIdleTimeout(); d != nil {
			in.IdleTimeoutSet, in.Seconds, in.Nanos = true, d.GetSeconds(), d.GetNanos()
		}
	}
	return in
}

// HTTPProtocolOptionsType is the typed_extension_protocol_options key and
// upstream_config type of HTTP protocol options.
const HTTPProtocolOptionsType = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"
