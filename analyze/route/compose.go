package route

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// Balancers are the load-balancing reports a route's clusters go
// through, passed in by the caller (a report package imports no other
// report): explain's host shares, the subset LB's pick, the hash LB's
// host. A nil function leaves that step out.
type Balancers struct {
	// Hosts gives a cluster's hosts with their shares of its traffic.
	Hosts func(cluster string) (ClusterHosts, error)
	// Subset gives the hosts the subset LB serves for the criteria with
	// their shares (the subset's own child load balancer's), or the one
	// host its hash maps req to through route's hash policy; ok is false
	// when the cluster has no subset load balancing.
	Subset func(cluster string, criteria map[string]any, route string, req Request) (h ClusterHosts, ok bool, err error)
	// Hash gives the one host a RING_HASH / MAGLEV cluster maps this
	// request to through route's (or the cluster's) hash policy; nil when
	// the cluster does not hash or the policy makes no hash.
	Hash func(cluster, route string, req Request) (*HashPick, error)
	// Aggregate gives an aggregate's hosts when a child picks otherwise
	// than explain's shares say (a subset child, a hashing child); ok is
	// false when explain's shares (Hosts) are exact.
	Aggregate func(cluster string, criteria map[string]any, route string, req Request) (h ClusterHosts, ok bool, err error)
	// RouteHash is the hash the route's hash_policy makes of req, for
	// weighted clusters' use_hash_policy; ok is false when no policy
	// yields one, desc names the policies.
	RouteHash func(policies []*routev3.RouteAction_HashPolicy, req Request) (h uint64, ok bool, desc string, err error)
}

// ClusterHosts are a cluster's hosts with their shares of its traffic
// (summing to 1, or less when some requests find no host).
type ClusterHosts struct {
	Hosts []HostShare
	Notes []string
	// Hash is set when the hosts are the one a hash picked.
	Hash *HashPick
}

// FromTraffic reads explain's (or grpc's) cluster report as host shares.
func FromTraffic(cr traffic.ClusterReport) ClusterHosts {
	var out ClusterHosts
	unknown := 0
	for _, h := range cr.Hosts {
		if h.Share == nil {
			unknown++
			continue
		}
		if *h.Share > 0 {
			c := h.Cluster
			if c == "" {
				c = cr.Name
			}
			out.Hosts = append(out.Hosts, HostShare{Cluster: c, Address: h.Address, Share: *h.Share})
		}
	}
	if unknown > 0 {
		out.Notes = append(out.Notes, sprintf("cluster %q: %d host share(s) cannot be computed (see lbctl explain)", cr.Name, unknown))
	}
	if cr.NoHostShare > 0 {
		out.Notes = append(out.Notes, sprintf("cluster %q: %.4g of its requests find no host", cr.Name, cr.NoHostShare))
	}
	return out
}

// compose spreads each target's share over its hosts.
func compose(r *Report, targets []target, lb Balancers, routeName string, req Request) {
	r.Hosts = []HostShare{}
	for _, t := range targets {
		hosts, ok := hostsOf(r, t, lb, routeName, req)
		if !ok {
			continue
		}
		for _, n := range hosts.Notes {
			r.note("%s", n)
		}
		for _, h := range hosts.Hosts {
			h.Share *= t.share
			if h.Cluster == "" {
				h.Cluster = t.name
			}
			r.Hosts = append(r.Hosts, h)
		}
	}
}

func hostsOf(r *Report, t target, lb Balancers, routeName string, req Request) (ClusterHosts, bool) {
	// A subset cluster runs its subset load balancer for every request:
	// without criteria it goes to the fallback policy (chooseHostIteration).
	noSubset := false
	if lb.Subset != nil {
		h, ok, err := lb.Subset(t.name, t.crit, routeName, req)
		if err != nil {
			r.note("cluster %q: %v", t.name, err)
			return ClusterHosts{}, false
		}
		if ok {
			if t.crit != nil {
				r.note("cluster %q: metadata_match goes through its subset load balancer", t.name)
			} else {
				r.note("cluster %q: the request carries no metadata_match, so its subset load balancer uses its fallback policy", t.name)
			}
			if h.Hash != nil {
				if r.Hash == nil {
					r.Hash = h.Hash
				}
				r.note("cluster %q hashes this request (%s) to one host of the subset's own ring or table", t.name, h.Hash.Policy)
			}
			return h, true
		}
		noSubset = t.crit != nil
	}
	if lb.Aggregate != nil {
		h, ok, err := lb.Aggregate(t.name, t.crit, routeName, req)
		if err != nil {
			r.note("cluster %q: %v", t.name, err)
			return ClusterHosts{}, false
		}
		if ok {
			if h.Hash != nil && r.Hash == nil {
				r.Hash = h.Hash
			}
			if t.crit != nil {
				r.note("aggregate %q passes metadata_match on to its children's load balancers", t.name)
			}
			return h, true
		}
	}
	if noSubset {
		r.note("cluster %q has no subset load balancing: metadata_match is ignored", t.name)
	}
	if lb.Hash != nil {
		p, err := lb.Hash(t.name, routeName, req)
		if err != nil {
			r.note("cluster %q: %v", t.name, err)
		} else if p != nil {
			if r.Hash == nil {
				r.Hash = p
			}
			r.note("cluster %q hashes this request (%s) to one host", t.name, p.Policy)
			return ClusterHosts{Hosts: []HostShare{{Cluster: t.name, Address: p.Host, Share: 1}}}, true
		}
	}
	if lb.Hosts == nil {
		return ClusterHosts{}, false
	}
	h, err := lb.Hosts(t.name)
	if err != nil {
		r.note("cluster %q: %v", t.name, err)
		return ClusterHosts{}, false
	}
	return h, true
}
