package analyze

import (
	"fmt"
	"sort"
	"strings"

	xdstypev3 "github.com/cncf/xds/go/xds/type/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	lrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/least_request/v3"
	ringv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	wrrv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/wrr_locality/v3"

	"github.com/lbctl/lbctl/lbmodel"
)

// GRPCPolicyInput reads a cluster's LB configuration the way gRPC's CDS
// parser does (grpc-go xdsresource/unmarshal_cds.go, C-core
// xds_cluster_parser.cc): the lb_policy enum with its ring hash / least
// request configs, and load_balancing_policy converted entry by entry.
func (c *Config) GRPCPolicyInput(p *clusterv3.Cluster) lbmodel.GRPCPolicyInput {
	in := lbmodel.GRPCPolicyInput{LBPolicy: p.GetLbPolicy().String()}
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
		in.LoadBalancingPolicy = c.grpcTypedList(lbp, 0)
	}
	return in
}

// grpcTypedList converts load_balancing_policy.policies; nesting is cut at
// 17 levels so the converter (which fails at 16) sees the excess.
func (c *Config) grpcTypedList(lbp *clusterv3.LoadBalancingPolicy, depth int) []lbmodel.GRPCTypedPolicy {
	out := []lbmodel.GRPCTypedPolicy{}
	if depth > 17 {
		return out
	}
	for _, pol := range lbp.GetPolicies() {
		a := pol.GetTypedExtensionConfig().GetTypedConfig()
		tp := lbmodel.GRPCTypedPolicy{Type: TypeName(a.GetTypeUrl())}
		switch m := c.Sources.Unpacked(a).(type) {
		case *xdstypev3.TypedStruct:
			// gRPC's registry names a TypedStruct by the type it wraps.
			tp.Type = TypeName(m.GetTypeUrl())
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
			tp.EndpointPicking = c.grpcTypedList(m.GetEndpointPickingPolicy(), depth+1)
		}
		out = append(out, tp)
	}
	return out
}

// TypeName is the message name a type URL names (its last path element).
func TypeName(url string) string { return url[strings.LastIndexByte(url, '/')+1:] }

// grpcPolicyName renders a converted policy tree, e.g.
// "xds_wrr_locality_experimental(round_robin)".
func grpcPolicyName(p lbmodel.GRPCPolicy) string {
	if p.Child != nil {
		return p.Name + "(" + grpcPolicyName(*p.Child) + ")"
	}
	return p.Name
}

// grpcCDS is one cluster as a gRPC client of implementation impl would
// hold it after CDS validation.
type grpcCDS struct {
	cl     *Cluster
	kind   lbmodel.GRPCClusterKind
	policy lbmodel.GRPCPolicy
	// nack is the CDS rejection; failure is grpc-go's deferred error (the
	// resource is accepted, the cluster fails when its balancer starts).
	nack, failure string
	// servedAsEDS: the cluster's discovery type is one gRPC rejects
	// (STATIC, STRICT_DNS, ORIGINAL_DST); lbctl answers as if its
	// endpoints were served through EDS, and says so.
	servedAsEDS string
}

// grpcCDSOf validates cl as gRPC's CDS parser does for impl (grpc.md §13).
func (c *Config) grpcCDSOf(cl *Cluster, impl lbmodel.GRPCImpl) grpcCDS {
	p := cl.Proto
	out := grpcCDS{cl: cl, kind: lbmodel.GRPCClusterEDS}
	m := c.Model(cl)
	switch {
	case m.IsAggregate:
		out.kind = lbmodel.GRPCClusterAggregate
		if len(m.Aggregate) == 0 {
			out.nack = "aggregate cluster with an empty clusters list"
		}
	case p.GetClusterType() != nil:
		out.nack = fmt.Sprintf("unknown cluster_type extension %q", p.GetClusterType().GetName())
	case p.GetType() == clusterv3.Cluster_LOGICAL_DNS:
		out.kind = lbmodel.GRPCClusterLogicalDNS
	case p.GetType() != clusterv3.Cluster_EDS:
		out.servedAsEDS = p.GetType().String()
	}
	pol, err := lbmodel.GRPCSelectPolicy(c.GRPCPolicyInput(p), impl)
	out.policy = pol
	if err != nil && out.nack == "" {
		out.nack = err.Error()
	}
	if pol.DeferredError != "" {
		out.failure = pol.DeferredError
	}
	if impl == lbmodel.GRPCCore && out.nack == "" {
		if _, err := lbmodel.GRPCSessionIdleTimeout(IdleTimeoutInput(p)); err != nil {
			out.nack = err.Error()
		}
	}
	return out
}

// grpcClusterMap describes every loaded cluster for
// lbmodel.ResolveGRPCAggregate. A cluster NACKed by CDS is in error; a name
// with no cluster is absent (does not exist).
func (c *Config) grpcClusterMap(impl lbmodel.GRPCImpl) (map[string]lbmodel.GRPCCluster, map[string]grpcCDS) {
	out := map[string]lbmodel.GRPCCluster{}
	cds := map[string]grpcCDS{}
	for _, cl := range c.Clusters {
		v := c.grpcCDSOf(cl, impl)
		cds[cl.Name()] = v
		g := lbmodel.GRPCCluster{Name: cl.Name(), Kind: v.kind, LBPolicy: grpcPolicyName(v.policy)}
		if v.nack != "" {
			g.State = lbmodel.GRPCClusterError
		}
		if v.kind == lbmodel.GRPCClusterAggregate {
			g.Children = c.Model(cl).Aggregate
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
func (c *Config) grpcLeafOf(cl *Cluster, logicalDNS bool, opt ExplainOptions) (*grpcLeaf, error) {
	m, notes, err := c.modelWith(cl, opt)
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
				addrs := []string{FormatAddress(ep.GetEndpoint().GetAddress())}
				for _, aa := range ep.GetEndpoint().GetAdditionalAddresses() {
					addrs = append(addrs, FormatAddress(aa.GetAddress()))
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
