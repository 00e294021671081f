package proxyless

import (
	"fmt"
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// grpcPolicyName renders a converted policy tree, e.g.
// "xds_wrr_locality_experimental(round_robin)".
func grpcPolicyName(p grpc.Policy) string {
	if p.Child != nil {
		return p.Name + "(" + grpcPolicyName(*p.Child) + ")"
	}
	return p.Name
}

// grpcCDS is one cluster as a gRPC client of implementation impl would
// hold it after CDS validation.
type grpcCDS struct {
	cl     *config.Cluster
	kind   grpc.ClusterKind
	policy grpc.Policy
	// nack is the CDS rejection; failure is grpc-go's deferred error (the
	// resource is accepted, the cluster fails when its balancer starts).
	nack, failure string
	// servedAsEDS: the cluster's discovery type is one gRPC rejects
	// (STATIC, STRICT_DNS, ORIGINAL_DST); lbctl answers as if its
	// endpoints were served through EDS, and says so.
	servedAsEDS string
}

// grpcCDSOf validates cl as gRPC's CDS parser does for impl (grpc.md §13).
func grpcCDSOf(c *config.Config, cl *config.Cluster, impl grpc.Impl) grpcCDS {
	p := cl.Proto
	out := grpcCDS{cl: cl, kind: grpc.ClusterEDS}
	m := model.Get(c, cl)
	switch {
	case m.IsAggregate:
		out.kind = grpc.ClusterAggregate
		if len(m.Aggregate) == 0 {
			out.nack = "aggregate cluster with an empty clusters list"
		}
	case p.GetClusterType() != nil:
		out.nack = fmt.Sprintf("unknown cluster_type extension %q", p.GetClusterType().GetName())
	case p.GetType() == clusterv3.Cluster_LOGICAL_DNS:
		out.kind = grpc.ClusterLogicalDNS
	case p.GetType() != clusterv3.Cluster_EDS:
		out.servedAsEDS = p.GetType().String()
	}
	pol, err := grpc.SelectPolicy(model.GRPCPolicyInput(c, p), impl)
	out.policy = pol
	if err != nil && out.nack == "" {
		out.nack = err.Error()
	}
	if pol.DeferredError != "" {
		out.failure = pol.DeferredError
	}
	if impl == grpc.CoreImpl && out.nack == "" {
		if _, err := grpc.SessionIdleTimeout(model.IdleTimeoutInput(p)); err != nil {
			out.nack = err.Error()
		}
	}
	return out
}

// grpcClusterMap describes every loaded cluster for
// grpc.ResolveAggregate. A cluster NACKed by CDS is in error; a name
// with no cluster is absent (does not exist).
func grpcClusterMap(c *config.Config, impl grpc.Impl) (map[string]grpc.Cluster, map[string]grpcCDS) {
	out := map[string]grpc.Cluster{}
	cds := map[string]grpcCDS{}
	for _, cl := range c.Clusters {
		v := grpcCDSOf(c, cl, impl)
		cds[cl.Name()] = v
		g := grpc.Cluster{Name: cl.Name(), Kind: v.kind, LBPolicy: grpcPolicyName(v.policy)}
		if v.nack != "" {
			g.State = grpc.ClusterError
		}
		if v.kind == grpc.ClusterAggregate {
			g.Children = model.Get(c, cl).Aggregate
		}
		out[cl.Name()] = g
	}
	return out, cds
}

// grpcLeaf is a leaf cluster's endpoints as gRPC's EDS parser keeps them
// (grpc-go xdsresource/unmarshal_eds.go parseEDSRespProto, C-core
// xds_endpoint_parser.cc).
type grpcLeaf struct {
	name  string
	hosts []lbmodel.Host
	// priorities is how many priorities gRPC builds (0 when none).
	priorities int
	// nack is the EDS rejection: the leaf then contributes one empty
	// priority that fails at once (grpc.md §2.2).
	nack  string
	notes []string
}

// grpcLeafOf builds cl's leaf with --set-health applied.
func grpcLeafOf(c *config.Config, cl *config.Cluster, logicalDNS bool, opt model.Options) (*grpcLeaf, error) {
	m, notes, err := model.With(c, cl, opt)
	if err != nil {
		return nil, err
	}
	l := &grpcLeaf{name: m.Name, hosts: m.Hosts, notes: notes}
	if logicalDNS {
		// A LOGICAL_DNS leaf is one priority with one locality of weight 1.
		for i := range l.hosts {
			l.hosts[i].Priority, l.hosts[i].LocalityWeight = 0, 1
		}
	}
	present := map[int]bool{}
	seenAddr := map[string]bool{}
	type locKey struct {
		p int
		l lbmodel.Locality
	}
	groups := map[locKey]bool{}
	if a := cl.Assignment; a != nil && !logicalDNS {
		for _, g := range a.GetEndpoints() {
			if g.GetLoadBalancingWeight().GetValue() == 0 {
				continue
			}
			k := locKey{int(g.GetPriority()), lbmodel.Locality{Region: g.GetLocality().GetRegion(), Zone: g.GetLocality().GetZone(), SubZone: g.GetLocality().GetSubZone()}}
			if groups[k] && l.nack == "" {
				l.nack = fmt.Sprintf("duplicate locality %q in priority %d", k.l.String(), k.p)
			}
			groups[k] = true
			present[k.p] = true
			for _, ep := range g.GetLbEndpoints() {
				if w := ep.GetLoadBalancingWeight(); w != nil && w.GetValue() == 0 && l.nack == "" {
					l.nack = "endpoint weight of 0"
				}
				addrs := []string{config.FormatAddress(ep.GetEndpoint().GetAddress())}
				for _, aa := range ep.GetEndpoint().GetAdditionalAddresses() {
					addrs = append(addrs, config.FormatAddress(aa.GetAddress()))
				}
				for _, ad := range addrs {
					if seenAddr[ad] && l.nack == "" {
						l.nack = fmt.Sprintf("duplicate endpoint address %s", ad)
					}
					seenAddr[ad] = true
				}
			}
		}
	} else if logicalDNS && len(l.hosts) > 0 {
		present[0] = true
	}
	ps := make([]int, 0, len(present))
	for p := range present {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	for i, p := range ps {
		if p != i && l.nack == "" {
			l.nack = fmt.Sprintf("priority %d missing (priorities must be contiguous from 0 once localities without weight are dropped)", i)
		}
	}
	l.priorities = len(ps)
	return l, nil
}

// level returns the hosts of EDS priority p (indexes into l.hosts),
// including those of localities gRPC drops (lbmodel leaves them out of
// the split and notes it).
func (l *grpcLeaf) level(p int) []int {
	var out []int
	for i, h := range l.hosts {
		if h.Priority == p {
			out = append(out, i)
		}
	}
	return out
}
