package model

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/subset"
)

// maxUnreachedNames bounds how many hosts an unreached note names.
const maxUnreachedNames = 8

// UnreachedHealthy is what LB1311 flags: the healthy hosts of cl that no
// request reaches, from lb (cl's subset LB over m.Hosts; see
// subset.LB.UnreachedWhy). Empty when the hosts are not the input's: no
// assignment, an aggregate, or hosts made per request (ORIGINAL_DST,
// dynamic forward proxy), where the configured hosts are not what the
// subset LB sees. Only healthy hosts count: an unhealthy host gets no
// traffic anyway, so its being unreachable loses nothing.
func UnreachedHealthy(cl *config.Cluster, m *Model, lb *subset.LB) subset.Unreachability {
	if cl.Assignment == nil || PerRequestHosts(cl.Proto) != "" || m.IsAggregate {
		return subset.Unreachability{}
	}
	u := lb.UnreachedWhy()
	kept := u.Hosts[:0]
	for _, h := range u.Hosts {
		if m.Hosts[h.Host].Health() == lbmodel.Healthy {
			kept = append(kept, h)
		}
	}
	u.Hosts = kept
	return u
}

// UnreachedNote says which hosts LB1311 flags in cl (UnreachedHealthy) and
// why, as a clause ending "so no request reaches them whatever the health
// of the hosts", and how many hosts it names; "" when there are none.
func UnreachedNote(cl *config.Cluster, m *Model, lb *subset.LB) (string, int) {
	u := UnreachedHealthy(cl, m, lb)
	if len(u.Hosts) == 0 {
		return "", 0
	}
	list := func(idx []int) string {
		names := make([]string, len(idx))
		for i, h := range idx {
			names[i] = HostNames(m.Hosts[h : h+1])[0]
		}
		return config.List(names, maxUnreachedNames)
	}
	them := "them"
	if len(u.Hosts) == 1 {
		them = "it"
	}
	// Escape: subset keys come from host metadata unescaped.
	return config.Escape(u.Describe(list)) + ", so no request reaches " + them + " whatever the health of the hosts", len(u.Hosts)
}
