package placement

import (
	"fmt"
	"math"
	"sort"

	"github.com/lbctl/lbctl/lbmodel"
)

// HashPriority is one level's ring or table and how even it is.
type HashPriority struct {
	Priority     int  `json:"priority" yaml:"priority"`
	HealthyLoad  int  `json:"healthy_load" yaml:"healthy_load"`
	DegradedLoad int  `json:"degraded_load" yaml:"degraded_load"`
	Panic        bool `json:"panic" yaml:"panic"`
	Hosts        int  `json:"hosts" yaml:"hosts"`
	// InTable is how many hosts the ring or table is built over (healthy
	// ones, all in panic).
	InTable int `json:"in_table" yaml:"in_table"`
	// Size is the ring's entry count or the table size (0 when empty).
	Size       uint64  `json:"size" yaml:"size"`
	MinEntries uint64  `json:"min_entries" yaml:"min_entries"`
	MaxEntries uint64  `json:"max_entries" yaml:"max_entries"`
	MinShare   float64 `json:"min_share" yaml:"min_share"`
	MaxShare   float64 `json:"max_share" yaml:"max_share"`
	StdDev     float64 `json:"stddev" yaml:"stddev"`
	// Imbalance is the max/min ratio of share ÷ expected share (the host's
	// normalized weight); 1 is perfect, 0 when there is nothing to compare.
	Imbalance float64 `json:"imbalance" yaml:"imbalance"`
	Verdict   string  `json:"verdict" yaml:"verdict"`
}

// HashHost is one host's part of its level's ring or table.
type HashHost struct {
	Address  string `json:"address" yaml:"address"`
	Priority int    `json:"priority" yaml:"priority"`
	Health   string `json:"health" yaml:"health"`
	Entries  uint64 `json:"entries" yaml:"entries"`
	// Share is the fraction of its priority's hash space the host answers.
	Share float64 `json:"share" yaml:"share"`
	// Expected is the host's normalized weight: its share if placement
	// were perfect (0 for hosts not in the ring or table).
	Expected float64 `json:"expected" yaml:"expected"`
}

func StructureName(policy string) string {
	if policy == "RING_HASH" {
		return "ring"
	}
	return "Maglev table"
}

// Describe describes level i and its hosts (every host of the level;
// those outside the ring or table with 0 entries).
func Describe(hs *Setup, i int, policy string) (HashPriority, []HashHost) {
	pl := &hs.Levels[i]
	pr := HashPriority{Priority: i, Panic: pl.Panic, Hosts: len(pl.Hosts), Size: pl.Size()}
	if i < len(hs.Load.Levels) {
		pr.HealthyLoad, pr.DegradedLoad = hs.Load.Levels[i].HealthyLoad, hs.Load.Levels[i].DegradedLoad
	}
	shares := pl.Shares()
	weights := pl.Weights()
	pr.InTable = len(weights)
	if pl.Ring != nil {
		pr.MinEntries, pr.MaxEntries = pl.Ring.MinHashesPerHost, pl.Ring.MaxHashesPerHost
	} else {
		pr.MinEntries, pr.MaxEntries = pl.Table.MinEntriesPerHost, pl.Table.MaxEntriesPerHost
	}
	st := lbmodel.ComputeShareStats(shares)
	pr.MinShare, pr.MaxShare, pr.StdDev = st.Min, st.Max, st.StdDev
	byAddr := map[string]int{}
	for k, s := range shares {
		byAddr[s.Address] = k
	}
	lo, hi := math.Inf(1), 0.0
	for k, s := range shares {
		if w := weights[k].Weight; w > 0 {
			q := s.Share / w
			lo, hi = min(lo, q), max(hi, q)
		}
	}
	if len(shares) > 1 && lo > 0 {
		pr.Imbalance = hi / lo
	} else if len(shares) > 1 {
		pr.Imbalance = math.Inf(1)
	}
	pr.Verdict = verdict(pr, policy)
	var hosts []HashHost
	for _, h := range pl.Hosts {
		hh := HashHost{Address: h.Address, Priority: i, Health: h.Status.String()}
		if k, ok := byAddr[h.Address]; ok {
			hh.Entries, hh.Share, hh.Expected = shares[k].Entries, shares[k].Share, weights[k].Weight
			delete(byAddr, h.Address) // duplicate addresses: first only
		}
		hosts = append(hosts, hh)
	}
	sort.SliceStable(hosts, func(a, b int) bool { return hosts[a].Share > hosts[b].Share })
	return pr, hosts
}

// verdict says in plain words whether the level's placement is even
// enough, and what to change if not.
func verdict(pr HashPriority, policy string) string {
	switch {
	case pr.InTable == 0 && pr.Hosts == 0:
		return "no hosts"
	case pr.InTable == 0:
		return "empty: no healthy host and not in panic, so lookups here find no host"
	case pr.InTable == 1:
		return "one host answers every hash"
	case math.IsInf(pr.Imbalance, 1):
		fix := "raise minimum_ring_size"
		if policy == "MAGLEV" {
			fix = "raise table_size"
		}
		return fmt.Sprintf("some host has no %s at all: %s", map[bool]string{true: "ring entry", false: "table slot"}[policy == "RING_HASH"], fix)
	}
	ratio := fmt.Sprintf("max/min share ratio %.2f", pr.Imbalance)
	switch {
	case pr.Imbalance <= 1.1:
		return ratio + ": balanced"
	case pr.Imbalance <= 1.5:
		return ratio + ": somewhat uneven"
	case policy == "RING_HASH":
		return ratio + ": imbalanced — raise minimum_ring_size"
	default:
		return ratio + ": imbalanced — raise table_size"
	}
}
