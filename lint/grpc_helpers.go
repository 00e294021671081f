package lint

import (
	"strings"

	"github.com/lbctl/lbctl/analyze/model"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

	"github.com/lbctl/lbctl/lbmodel"
)

// grpcImpls are the proxyless implementations the gRPC target judges for.
var grpcImpls = []lbmodel.GRPCImpl{lbmodel.GRPCGo, lbmodel.GRPCCore}

// grpcPolicyErrors runs lbmodel.GRPCSelectPolicy for grpc-go and C-core and
// returns the NACK errors whose text contains substr, keyed by
// implementation name (nil when neither matches).
func (p *Pass) grpcPolicyErrors(c *clusterv3.Cluster, substr string) map[string]string {
	var out map[string]string
	in := model.GRPCPolicyInput(p.Cfg, c)
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
		return lbmodel.GRPCClusterAggregate, ct.GetName() == model.AggregateType
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
