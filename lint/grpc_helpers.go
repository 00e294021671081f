package lint

import (
	"strings"

	xdstypev3 "github.com/cncf/xds/go/xds/type/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	leastrequestv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/least_request/v3"
	ringhashv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	wrrlocalityv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/wrr_locality/v3"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/lbctl/lbctl/analyze"
	"github.com/lbctl/lbctl/lbmodel"
)

// grpcImpls are the proxyless implementations the gRPC target judges for.
var grpcImpls = []lbmodel.GRPCImpl{lbmodel.GRPCGo, lbmodel.GRPCCore}

// grpcPolicyInput describes the cluster's LB fields as gRPC reads them, for
// lbmodel.GRPCSelectPolicy.
func (p *Pass) grpcPolicyInput(c *clusterv3.Cluster) lbmodel.GRPCPolicyInput {
	in := lbmodel.GRPCPolicyInput{LBPolicy: c.GetLbPolicy().String()}
	if rh := c.GetRingHashLbConfig(); rh != nil {
		in.RingHash.HashFunction = rh.GetHashFunction().String()
		if v := rh.GetMinimumRingSize(); v != nil {
			x := v.GetValue()
			in.RingHash.MinRingSize = &x
		}
		if v := rh.GetMaximumRingSize(); v != nil {
			x := v.GetValue()
			in.RingHash.MaxRingSize = &x
		}
	}
	if v := c.GetLeastRequestLbConfig().GetChoiceCount(); v != nil {
		x := v.GetValue()
		in.LeastRequestChoice = &x
	}
	if lbp := c.GetLoadBalancingPolicy(); lbp != nil {
		in.LoadBalancingPolicy = []lbmodel.GRPCTypedPolicy{}
		for _, pol := range lbp.GetPolicies() {
			in.LoadBalancingPolicy = append(in.LoadBalancingPolicy, p.grpcTyped(pol.GetTypedExtensionConfig().GetTypedConfig()))
		}
	}
	return in
}

// grpcTyped converts one typed policy entry (recursively for WrrLocality).
// A TypedStruct is named by the type it wraps, as gRPC's registry does.
func (p *Pass) grpcTyped(a *anypb.Any) lbmodel.GRPCTypedPolicy {
	tp := lbmodel.GRPCTypedPolicy{Type: typeName(a.GetTypeUrl())}
	m := p.Cfg.Sources.Unpacked(a)
	if m == nil && a != nil {
		m, _ = a.UnmarshalNew()
	}
	switch t := m.(type) {
	case *xdstypev3.TypedStruct:
		tp.Type = typeName(t.GetTypeUrl())
	case *ringhashv3.RingHash:
		tp.RingHash.HashFunction = t.GetHashFunction().String()
		if t.GetHashFunction() == ringhashv3.RingHash_DEFAULT_HASH {
			tp.RingHash.HashFunction = ""
		}
		if v := t.GetMinimumRingSize(); v != nil {
			x := v.GetValue()
			tp.RingHash.MinRingSize = &x
		}
		if v := t.GetMaximumRingSize(); v != nil {
			x := v.GetValue()
			tp.RingHash.MaxRingSize = &x
		}
	case *leastrequestv3.LeastRequest:
		if v := t.GetChoiceCount(); v != nil {
			x := v.GetValue()
			tp.ChoiceCount = &x
		}
	case *wrrlocalityv3.WrrLocality:
		tp.EndpointPicking = []lbmodel.GRPCTypedPolicy{}
		for _, pol := range t.GetEndpointPickingPolicy().GetPolicies() {
			tp.EndpointPicking = append(tp.EndpointPicking, p.grpcTyped(pol.GetTypedExtensionConfig().GetTypedConfig()))
		}
	}
	return tp
}

// grpcPolicyErrors runs lbmodel.GRPCSelectPolicy for grpc-go and C-core and
// returns the NACK errors whose text contains substr, keyed by
// implementation name (nil when neither matches).
func (p *Pass) grpcPolicyErrors(c *clusterv3.Cluster, substr string) map[string]string {
	var out map[string]string
	in := p.grpcPolicyInput(c)
	for _, impl := range grpcImpls {
		if _, err := lbmodel.GRPCSelectPolicy(in, impl); err != nil && strings.Contains(err.Error(), substr) {
			if out == nil {
				out = map[string]string{}
			}
			out[impl.String()] = err.Error()
		}
	}
	return out
}

// implList formats the keys of grpcPolicyErrors' result ("grpc-go and grpc-core").
func implList(m map[string]string) string {
	var names []string
	for _, impl := range grpcImpls {
		if _, ok := m[impl.String()]; ok {
			names = append(names, impl.String())
		}
	}
	return strings.Join(names, " and ")
}

// firstErr is one of the errors of grpcPolicyErrors (grpc-go's first).
func firstErr(m map[string]string) string {
	for _, impl := range grpcImpls {
		if e, ok := m[impl.String()]; ok {
			return e
		}
	}
	return ""
}

// grpcKind is the cluster's discovery type as gRPC sees it, and whether
// gRPC accepts it (EDS, LOGICAL_DNS, envoy.clusters.aggregate only).
func grpcKind(c *clusterv3.Cluster) (lbmodel.GRPCClusterKind, bool) {
	if ct := c.GetClusterType(); ct != nil {
		return lbmodel.GRPCClusterAggregate, ct.GetName() == analyze.AggregateType
	}
	switch c.GetType() {
	case clusterv3.Cluster_EDS:
		return lbmodel.GRPCClusterEDS, true
	case clusterv3.Cluster_LOGICAL_DNS:
		return lbmodel.GRPCClusterLogicalDNS, true
	}
	return lbmodel.GRPCClusterEDS, false
}

// grpcClusters is the loaded CDS resources for lbmodel.ResolveGRPCAggregate;
// clusters gRPC would NACK for their type are in error.
func (p *Pass) grpcClusters() map[string]lbmodel.GRPCCluster {
	out := map[string]lbmodel.GRPCCluster{}
	for _, cl := range p.Cfg.Clusters {
		kind, ok := grpcKind(cl.Proto)
		g := lbmodel.GRPCCluster{Name: cl.Name(), Kind: kind}
		if !ok {
			g.State = lbmodel.GRPCClusterError
		}
		if kind == lbmodel.GRPCClusterAggregate {
			g.Children = p.Model(cl).Aggregate
		}
		out[cl.Name()] = g
	}
	return out
}
