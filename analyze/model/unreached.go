package model

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel/subset"
)

// maxUnreachedNames bounds how many hosts an unreached note names.
const maxUnreachedNames = 8

// UnreachedNote says which of cl's hosts no request reaches and why, from
// lb (cl's subset LB over m.Hosts; see subset.LB.UnreachedWhy), as a clause
// ending "so no request reaches them whatever the health of the hosts", and
// how many hosts it names. "" when every host is reached, or when the hosts
// are not the input's (no assignment, made per request, an aggregate), as
// LB1311 skips them.
func UnreachedNote(cl *config.Cluster, m *Model, lb *subset.LB) (string, int) {
	if cl.Assignment == nil || PerRequestHosts(cl.Proto) != "" || m.IsAggregate {
		return "", 0
	}
	u := lb.UnreachedWhy()
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
