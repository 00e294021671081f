package lint

import (
	"strings"

	"github.com/lbctl/lbctl/analyze/model"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// grpcImpls are the proxyless implementations the gRPC target judges for.
var grpcImpls = []grpc.Impl{grpc.GoImpl, grpc.CoreImpl}

// grpcPolicyErrors runs grpc.SelectPolicy for grpc-go and C-core and
// returns the NACK errors whose text contains substr, keyed by
// implementation name (nil when neither matches).
func (p *Pass) grpcPolicyErrors(c *clusterv3.Cluster, substr string) map[string]string {
	var out map[string]string
	in := model.GRPCPolicyInput(p.Cfg, c)
	for _, impl := range grpcImpls {
		if _, err := grpc.SelectPolicy(in, impl); err != nil && strings.Contains(err.Error(), substr) {
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
func grpcKind(c *clusterv3.Cluster) (grpc.ClusterKind, bool) {
	if ct := c.GetClusterType(); ct != nil {
		return grpc.ClusterAggregate, ct.GetName() == model.AggregateType
	}
	switch c.GetType() {
	case clusterv3.Cluster_EDS:
		return grpc.ClusterEDS, true
	case clusterv3.Cluster_LOGICAL_DNS:
		return grpc.ClusterLogicalDNS, true
	}
	return grpc.ClusterEDS, false
}

// grpcClusters is the loaded CDS resources for grpc.ResolveAggregate;
// clusters gRPC would NACK for their type are in error.
func (p *Pass) grpcClusters() map[string]grpc.Cluster {
	out := map[string]grpc.Cluster{}
	for _, cl := range p.Cfg.Clusters {
		kind, ok := grpcKind(cl.Proto)
		g := grpc.Cluster{Name: cl.Name(), Kind: kind}
		if !ok {
			g.State = grpc.ClusterError
		}
		if kind == grpc.ClusterAggregate {
			g.Children = p.Model(cl).Aggregate
		}
		out[cl.Name()] = g
	}
	return out
}
