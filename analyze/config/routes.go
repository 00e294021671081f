package config

import (
	"fmt"
	"slices"
	"sort"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/lbctl/lbctl/lbmodel"
)

// RouteTarget is one cluster a route sends traffic to, with the
// metadata_match criteria its requests carry to that cluster's subset LB.
// It is the one view of routes that hash, subset, explain and lint share.
type RouteTarget struct {
	// Action is the route's RouteAction; Label names the route in messages
	// (route "NAME", or route in virtual host "V" when it has no name).
	Action      *routev3.RouteAction
	Label       string
	RouteConfig string
	VirtualHost string
	Route       string
	Cluster     string
	// WeightedCluster is the index in weighted_clusters.clusters, -1 when
	// the route names a single cluster.
	WeightedCluster int
	Weight          uint32
	// Share is the long-run fraction of the route's requests sent to this
	// target (w_i/total, pickWeightedCluster); 1 for a single cluster.
	Share float64
	// RouteMatch and ClusterMatch are the route's and the weighted
	// cluster's metadata_match envoy.lb structs, nil when absent.
	RouteMatch, ClusterMatch map[string]any
	// Pos is where the target cluster is named (the value), KeyPos the
	// key naming it (cluster: or a weighted cluster's name:).
	Pos, KeyPos Pos

	routeMD, clusterMD *structpb.Struct
}

// Criteria are the target's criteria with dynamic metadata (nil: none)
// merged over them (lbmodel.RouteCriteria).
func (t RouteTarget) Criteria(dynamic map[string]any) *lbmodel.MatchCriteria {
	return lbmodel.RouteCriteria(t.RouteMatch, t.ClusterMatch, dynamic)
}

// CriteriaPos is where criterion key is written: the weighted cluster's
// struct wins over the route's, as in the merge.
func (c *Config) CriteriaPos(t RouteTarget, key string) Pos {
	if t.clusterMD != nil {
		if _, ok := t.clusterMD.GetFields()[key]; ok {
			return c.Sources.ValuePos(t.clusterMD, key)
		}
	}
	if t.routeMD != nil {
		if _, ok := t.routeMD.GetFields()[key]; ok {
			return c.Sources.ValuePos(t.routeMD, key)
		}
	}
	return t.Pos
}

type routeEntry struct {
	rc *routev3.RouteConfiguration
	vh *routev3.VirtualHost
	r  *routev3.Route
}

func (c *Config) routeEntries() []routeEntry {
	var out []routeEntry
	for _, rc := range c.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			for _, r := range vh.GetRoutes() {
				out = append(out, routeEntry{rc, vh, r})
			}
		}
	}
	return out
}

// RouteNames lists the names of the loaded routes (RouteConfiguration →
// virtual_hosts → routes → name), sorted, without duplicates.
func (c *Config) RouteNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range c.routeEntries() {
		if n := e.r.GetName(); n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// FindRoute returns the targets of the first route called name, and
// whether there is one.
func (c *Config) FindRoute(name string) ([]RouteTarget, Problems, bool) {
	for _, e := range c.routeEntries() {
		if e.r.GetName() == name {
			ts, probs := c.routeTargets(e)
			return ts, probs, true
		}
	}
	return nil, nil, false
}

// RouteTargets lists every route target of the loaded route
// configurations, in file order.
func (c *Config) RouteTargets() []RouteTarget {
	var out []RouteTarget
	for _, e := range c.routeEntries() {
		ts, _ := c.routeTargets(e)
		out = append(out, ts...)
	}
	return out
}

// RoutesTo lists every route target that sends traffic to cluster, in
// file order. An index by cluster, built once on first use (reports ask
// once per cluster, from several goroutines; rescanning every route each
// time was quadratic on a mesh dump).
func (c *Config) RoutesTo(cluster string) []RouteTarget {
	c.routesOnce.Do(func() {
		c.routesTo = map[string][]RouteTarget{}
		for _, t := range c.RouteTargets() {
			c.routesTo[t.Cluster] = append(c.routesTo[t.Cluster], t)
		}
	})
	return slices.Clone(c.routesTo[cluster])
}

// HasMatch reports whether the route or its weighted cluster sets an
// envoy.lb metadata_match.
func (t RouteTarget) HasMatch() bool { return t.RouteMatch != nil || t.ClusterMatch != nil }

// HasHashPolicy reports whether the route sets a hash_policy.
func (t RouteTarget) HasHashPolicy() bool { return len(t.Action.GetHashPolicy()) > 0 }

// RouteProblems checks every route: targets naming a cluster that is not
// loaded, and weighted clusters whose weights add up to 0.
func (c *Config) RouteProblems() Problems {
	var out Problems
	for _, e := range c.routeEntries() {
		_, probs := c.routeTargets(e)
		out = append(out, probs...)
	}
	return out
}

// routeTargets reads a route's action: route.cluster, or each
// weighted_clusters entry, with their metadata_match (RouteEntryImplBase
// constructor, config_impl.cc; WeightedClustersConfigEntry,
// weighted_cluster_specifier.cc). Routes choosing the cluster at run time
// (cluster_header, cluster_specifier_plugin) have no static target.
func (c *Config) routeTargets(e routeEntry) ([]RouteTarget, Problems) {
	a := e.r.GetRoute()
	if a == nil {
		return nil, nil
	}
	var probs Problems
	base := RouteTarget{Action: a, Label: "route " + routeLabel(e), RouteConfig: e.rc.GetName(), VirtualHost: e.vh.GetName(), Route: e.r.GetName(), WeightedCluster: -1, Share: 1}
	base.RouteMatch, base.routeMD = MetadataMatch(a.GetMetadataMatch())
	unknown := func(name string, pos Pos) {
		if len(c.Clusters) > 0 && c.Cluster(name) == nil {
			probs = append(probs, Problem{Pos: pos, Severity: SevWarning, Code: CodeReference,
				Msg: safeMsg(fmt.Sprintf("route %s sends traffic to cluster %q, which is not in the loaded config", routeLabel(e), name))})
		}
	}
	if name := a.GetCluster(); name != "" {
		t := base
		t.Cluster = name
		t.Pos, t.KeyPos = c.Sources.ValuePos(a, "cluster"), c.Sources.FieldPos(a, "cluster")
		unknown(name, t.Pos)
		return []RouteTarget{t}, probs
	}
	wcs := a.GetWeightedClusters().GetClusters()
	if len(wcs) == 0 {
		return nil, probs
	}
	var model []lbmodel.WeightedCluster
	var out []RouteTarget
	for i, wc := range wcs {
		t := base
		t.Cluster = wc.GetName()
		t.WeightedCluster = i
		t.Weight = wc.GetWeight().GetValue()
		t.ClusterMatch, t.clusterMD = MetadataMatch(wc.GetMetadataMatch())
		t.Pos, t.KeyPos = c.Sources.ValuePos(wc, "name"), c.Sources.FieldPos(wc, "name")
		if t.Cluster != "" {
			unknown(t.Cluster, t.Pos)
		}
		out = append(out, t)
		model = append(model, lbmodel.WeightedCluster{Name: t.Cluster, Weight: t.Weight, MetadataMatch: t.ClusterMatch})
	}
	shares, err := lbmodel.WeightedClusterShares(model, false)
	if err != nil {
		probs = append(probs, Problem{Pos: c.Sources.FieldPos(a, "weighted_clusters"), Severity: SevError, Code: CodeInvalidValue,
			Msg: safeMsg(fmt.Sprintf("route %s: %v", routeLabel(e), err))})
		for i := range out {
			out[i].Share = 0
		}
		return out, probs
	}
	for i := range out {
		out[i].Share = shares[i]
	}
	return out, probs
}

func routeLabel(e routeEntry) string {
	if n := e.r.GetName(); n != "" {
		return fmt.Sprintf("%q", n)
	}
	return "in virtual host " + fmt.Sprintf("%q", e.vh.GetName())
}
