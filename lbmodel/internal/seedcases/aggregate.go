package seedcases

// Child is a present child cluster of an aggregate.
type Child struct {
	Name   string
	Levels []Level
}

// ClusterLoad is a child cluster's expected load in percent.
type ClusterLoad struct {
	Cluster string
	Load    int
}

// Agg is one expected aggregate cluster computation.
type Agg struct {
	Name      string
	Children  []Child
	Threshold int
	Linear    []string // "cluster/priority" for each linearized level
	Healthy   []int    // linearized healthy loads
	Degraded  []int    // linearized degraded loads; nil means all 0
	Clusters  []ClusterLoad
	Total     int
	// TotalPanic is the expected TotalPanic flag.
	TotalPanic bool
}

// pcts is a child whose levels have 100 hosts each, the given percentages healthy.
func pcts(name string, healthy ...int) Child {
	c := Child{Name: name}
	for _, h := range healthy {
		c.Levels = append(c.Levels, Pct(h))
	}
	return c
}

var ps5 = []string{"primary/0", "primary/1", "primary/2", "secondary/0", "secondary/1"}

func cl(primary, secondary int) []ClusterLoad {
	return []ClusterLoad{{"primary", primary}, {"secondary", secondary}}
}

// Seed000 are seed 000's table rows (aggregate_cluster.rst: primary 3
// levels, secondary 2, 100 hosts per level, OPF 140, threshold 50); errata
// 1 and 2 of priority.md §9 included.
var Seed000 = []Agg{
	{Name: "row1 all healthy", Children: []Child{pcts("primary", 100, 100, 100), pcts("secondary", 100, 100)},
		Threshold: 50, Linear: ps5, Healthy: []int{100, 0, 0, 0, 0}, Clusters: cl(100, 0), Total: 100},
	{Name: "row2 72%", Children: []Child{pcts("primary", 72, 100, 100), pcts("secondary", 100, 100)},
		Threshold: 50, Linear: ps5, Healthy: []int{100, 0, 0, 0, 0}, Clusters: cl(100, 0), Total: 100},
	{Name: "row3 71/1/0", Children: []Child{pcts("primary", 71, 1, 0), pcts("secondary", 100, 100)},
		Threshold: 50, Linear: ps5, Healthy: []int{99, 1, 0, 0, 0}, Clusters: cl(100, 0), Total: 100},
	{Name: "row4 71/0/0", Children: []Child{pcts("primary", 71, 0, 0), pcts("secondary", 100, 100)},
		Threshold: 50, Linear: ps5, Healthy: []int{99, 0, 0, 1, 0}, Clusters: cl(99, 1), Total: 100},
	{Name: "row5 50/0/0 50/0", Children: []Child{pcts("primary", 50, 0, 0), pcts("secondary", 50, 0)},
		Threshold: 50, Linear: ps5, Healthy: []int{70, 0, 0, 30, 0}, Clusters: cl(70, 30), Total: 100},
	{Name: "row6 20/20/10 25/25 (also text example 1)", Children: []Child{pcts("primary", 20, 20, 10), pcts("secondary", 25, 25)},
		Threshold: 50, Linear: ps5, Healthy: []int{28, 28, 14, 30, 0}, Clusters: cl(70, 30), Total: 100},
	{Name: "row7 20/0/0 20/0 erratum1: total panic 60/40 not 50/50", Children: []Child{pcts("primary", 20, 0, 0), pcts("secondary", 20, 0)},
		Threshold: 50, Linear: ps5, Healthy: []int{20, 20, 20, 20, 20}, Clusters: cl(60, 40), Total: 56, TotalPanic: true},
	{Name: "row7 erratum1: seed's 50/50 holds only with panic disabled", Children: []Child{pcts("primary", 20, 0, 0), pcts("secondary", 20, 0)},
		Threshold: 0, Linear: ps5, Healthy: []int{50, 0, 0, 50, 0}, Clusters: cl(50, 50), Total: 56},
	{Name: "row7 erratum1: or when the 0% levels have no hosts", Children: []Child{
		{"primary", []Level{Pct(20), {}, {}}}, {"secondary", []Level{Pct(20), {}}}},
		Threshold: 50, Linear: []string{"primary/0", "secondary/0"}, Healthy: []int{50, 50}, Clusters: cl(50, 50), Total: 56, TotalPanic: true},
	{Name: "row8 0/0/0 100/0", Children: []Child{pcts("primary", 0, 0, 0), pcts("secondary", 100, 0)},
		Threshold: 50, Linear: ps5, Healthy: []int{0, 0, 0, 100, 0}, Clusters: cl(0, 100), Total: 100},
	{Name: "row9 0/0/0 72/0", Children: []Child{pcts("primary", 0, 0, 0), pcts("secondary", 72, 0)},
		Threshold: 50, Linear: ps5, Healthy: []int{0, 0, 0, 100, 0}, Clusters: cl(0, 100), Total: 100},
	// §9 erratum 2: the doc floors per cluster (A=66, B=33, total 99);
	// the code floors per level and gives the remainder to the first
	// healthy level.
	{Name: "erratum2 per-level flooring: code 67/33 not 66/33", Children: []Child{pcts("A", 20, 20), pcts("B", 20)},
		Threshold: 0, Linear: []string{"A/0", "A/1", "B/0"}, Healthy: []int{34, 33, 33},
		Clusters: []ClusterLoad{{"A", 67}, {"B", 33}}, Total: 84},
}
