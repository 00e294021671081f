package model

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
)

// Local is what the config says of this Envoy's own place, with the
// what-if overrides (--local-cluster, --zone) applied.
type Local struct {
	Cluster        string // local cluster name, "" when none
	ClusterDefined bool
	Locality       *lbmodel.Locality // --zone or node.locality
	LocalityKnown  bool
	HasBootstrap   bool
	// Hosts are the local cluster's, when it is defined.
	Hosts []lbmodel.Host
}

// LocalOf is c's Local under opt, read once for every cluster a report
// resolves (Resolve passes it on).
func LocalOf(c *config.Config, opt Options) Local {
	name := LocalClusterName(c, opt)
	l := Local{Cluster: name, Locality: LocalLocality(c, opt), HasBootstrap: len(c.Bootstraps) > 0}
	l.LocalityKnown = l.Locality != nil
	if lc := c.Cluster(name); name != "" && lc != nil {
		l.ClusterDefined = true
		l.Hosts = Lookup(c, lc).Model.Hosts
	}
	return l
}

// node is the node locality as lbmodel takes it: the zero Locality when
// unknown.
func (l Local) node() lbmodel.Locality {
	if l.Locality == nil {
		return lbmodel.Locality{}
	}
	return *l.Locality
}

// NodeLocality is --zone, else the bootstrap's node.locality.
func NodeLocality(c *config.Config, opt Options) (lbmodel.Locality, bool) {
	if opt.Zone != nil {
		return *opt.Zone, true
	}
	for _, b := range c.Bootstraps {
		if l := b.GetNode().GetLocality(); l != nil {
			return lbmodel.Locality{Region: l.GetRegion(), Zone: l.GetZone(), SubZone: l.GetSubZone()}, true
		}
	}
	return lbmodel.Locality{}, false
}

// LocalLocality is NodeLocality as the pointer hash tables take: the
// locality ordered first among a level's hosts, nil when unknown.
func LocalLocality(c *config.Config, opt Options) *lbmodel.Locality {
	if l, ok := NodeLocality(c, opt); ok {
		return &l
	}
	return nil
}

// LocalClusterName is --local-cluster or cluster_manager.local_cluster_name.
func LocalClusterName(c *config.Config, opt Options) string {
	if opt.LocalCluster != "" {
		return opt.LocalCluster
	}
	for _, b := range c.Bootstraps {
		if n := b.GetClusterManager().GetLocalClusterName(); n != "" {
			return n
		}
	}
	return ""
}
