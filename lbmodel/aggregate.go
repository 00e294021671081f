package lbmodel

// ChildKind says what an aggregate cluster's list entry refers to.
type ChildKind int

const (
	// ChildPresent is an ordinary cluster that exists.
	ChildPresent ChildKind = iota
	// ChildMissing names no known cluster: Envoy skips it silently.
	ChildMissing
	// ChildAggregate is itself an aggregate cluster. Its own priority set has
	// no hosts, so it contributes no levels and its children are not reached.
	ChildAggregate
)

// AggregateChild is one entry of an aggregate cluster's ClusterConfig.clusters,
// in list order. Levels are the child's own priority levels.
type AggregateChild struct {
	Name   string
	Kind   ChildKind
	Levels []Level
}

// LinearLevel is one level of the linearized priority set.
type LinearLevel struct {
	Cluster  string
	Priority int // the child's own priority
	Level
}

// ClusterLoad is the share of an aggregate's traffic one child receives.
type ClusterLoad struct {
	Cluster string `json:"cluster"`
	Load    int    `json:"load"` // percent, healthy plus degraded, over all its linearized levels
}

// AggregateLoad is the top tier of an aggregate cluster.
type AggregateLoad struct {
	Levels      []LinearLevel
	Load        PriorityLoad // indexed like Levels
	ClusterLoad []ClusterLoad
}

// Linearize is AggregateClusterLoadBalancer::linearizePrioritySet
// (source/extensions/clusters/aggregate/cluster.cc): children in list order,
// missing and aggregate children skipped, every level with zero hosts
// skipped, duplicates added again for each occurrence.
func Linearize(children []AggregateChild) []LinearLevel {
	var out []LinearLevel
	for _, c := range children {
		if c.Kind != ChildPresent {
			continue
		}
		for p, l := range c.Levels {
			if l.Hosts <= 0 { // hosts().empty(); negative counts are invalid input
				continue
			}
			out = append(out, LinearLevel{Cluster: c.Name, Priority: p, Level: l})
		}
	}
	return out
}

// ComputeAggregate linearizes the children and runs the priority arithmetic
// over the linearized levels with the aggregate's own panic threshold.
// Cluster loads are listed once per distinct child, in first-occurrence
// order, including children that receive nothing. When no level survives
// linearization, Levels and Load.Levels are empty and Load.Choose reports
// !ok: Envoy then builds no load balancer and chooseHost returns no host
// (cluster_update_test.cc NoHealthyUpstream).
func ComputeAggregate(children []AggregateChild, threshold int) AggregateLoad {
	lin := Linearize(children)
	levels := make([]Level, len(lin))
	for i, l := range lin {
		levels[i] = l.Level
	}
	out := AggregateLoad{Levels: lin, Load: ComputePriorityLoad(levels, threshold)}
	index := map[string]int{}
	for _, c := range children {
		if _, ok := index[c.Name]; !ok {
			index[c.Name] = len(out.ClusterLoad)
			out.ClusterLoad = append(out.ClusterLoad, ClusterLoad{Cluster: c.Name})
		}
	}
	for i, l := range lin {
		ll := out.Load.Levels[i]
		out.ClusterLoad[index[l.Cluster]].Load += ll.HealthyLoad + ll.DegradedLoad
	}
	return out
}
