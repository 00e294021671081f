package placement

import (
	"fmt"
	"slices"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
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
	// normalized weight) over the hosts that get traffic; 1 is perfect, 0
	// when there is nothing to compare. Starved counts the hosts with a
	// positive weight but no ring entry or table slot.
	Imbalance float64 `json:"imbalance" yaml:"imbalance"`
	Starved   int     `json:"starved" yaml:"starved"`
	Verdict   string  `json:"verdict" yaml:"verdict"`
	// Ring and Table are this level's ring (ring order) or Maglev table
	// (slot order), with --dump.
	Ring  []RingEntry `json:"ring,omitempty" yaml:"ring,omitempty"`
	Table []string    `json:"table,omitempty" yaml:"table,omitempty"`
}

// RingEntry is one ring entry.
type RingEntry struct {
	Hash uint64 `json:"hash" yaml:"hash"`
	Host string `json:"host" yaml:"host"`
}

// Dump fills pr's ring or table from level i.
func Dump(hs *Setup, i int, pr *HashPriority) {
	pl := &hs.Levels[i]
	switch {
	case pl.Ring != nil:
		pr.Ring = make([]RingEntry, pl.Ring.Len())
		for k, h := range pl.Ring.Hashes {
			pr.Ring[k] = RingEntry{Hash: h, Host: pl.Ring.Hosts[pl.Ring.EntryHosts[k]].Host.Address}
		}
	case pl.Table != nil:
		pr.Table = make([]string, len(pl.Table.Slots))
		for k, sl := range pl.Table.Slots {
			pr.Table[k] = pl.Table.Hosts[sl].Host.Address
		}
	}
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
// those outside the ring or table with 0 entries), by share, largest first.
func Describe(hs *Setup, i int, policy string) (HashPriority, []HashHost) {
	pl := &hs.Levels[i]
	shares, weights := pl.Shares(), pl.Weights()
	pr := summarize(hs, i, policy, shares)
	if len(pl.Hosts) == 0 {
		return pr, nil
	}
	byAddr := make(map[string]int, len(shares))
	for k, s := range shares {
		byAddr[s.Address] = k
	}
	hosts := make([]HashHost, 0, len(pl.Hosts))
	for _, h := range pl.Hosts {
		hh := HashHost{Address: h.Address, Priority: i, Health: h.Status.String()}
		if k, ok := byAddr[h.Address]; ok {
			hh.Entries, hh.Share, hh.Expected = shares[k].Entries, lbmodel.CleanFloat(shares[k].Share), lbmodel.CleanFloat(weights[k].Weight)
			delete(byAddr, h.Address) // duplicate addresses: first only
		}
		hosts = append(hosts, hh)
	}
	// Sorts indexes, then moves each row once. slices.SortStableFunc runs
	// sort.SliceStable's steps, so the order is unchanged (NaN included).
	order := make([]int32, len(hosts))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if hosts[a].Share > hosts[b].Share {
			return -1
		}
		return 1 // only "< 0" is ever tested
	})
	sorted := make([]HashHost, len(hosts))
	for k, j := range order {
		sorted[k] = hosts[j]
	}
	return pr, sorted
}

// Summarize is Describe without the host list: the level's size, spread
// and verdict, for explain's notes.
func Summarize(hs *Setup, i int, policy string) HashPriority {
	return summarize(hs, i, policy, hs.Levels[i].Shares())
}

func summarize(hs *Setup, i int, policy string, shares []hash.HostShare) HashPriority {
	pl := &hs.Levels[i]
	pr := HashPriority{Priority: i, Panic: pl.Panic, Hosts: len(pl.Hosts), Size: pl.Size()}
	if i < len(hs.Load.Levels) {
		pr.HealthyLoad, pr.DegradedLoad = hs.Load.Levels[i].HealthyLoad, hs.Load.Levels[i].DegradedLoad
	}
	weights := pl.Weights()
	pr.InTable = len(weights)
	if pl.Ring != nil {
		pr.MinEntries, pr.MaxEntries = pl.Ring.MinHashesPerHost, pl.Ring.MaxHashesPerHost
	} else {
		pr.MinEntries, pr.MaxEntries = pl.Table.MinEntriesPerHost, pl.Table.MaxEntriesPerHost
	}
	st := hash.ComputeShareStats(shares)
	pr.MinShare, pr.MaxShare, pr.StdDev = lbmodel.CleanFloat(st.Min), lbmodel.CleanFloat(st.Max), lbmodel.CleanFloat(st.StdDev)
	expected := make([]float64, len(shares))
	for k := range shares {
		expected[k] = weights[k].Weight
	}
	// A starved host is a result, not an error: the ratio stays finite.
	pr.Imbalance, pr.Starved = hash.ShareImbalance(shares, expected)
	pr.Imbalance = lbmodel.CleanFloat(pr.Imbalance)
	weighted := false
	for _, e := range expected {
		weighted = weighted || e != expected[0]
	}
	pr.Verdict = verdict(pr, policy, weighted, hs.EmptyCause(i))
	return pr
}

// verdict says in plain words whether the level's placement is even
// enough, and what to change if not.
// With unequal weights the ratio compares each host's share with its
// weighted share, so 20%/80% shares for weights 1:4 are balanced.
func verdict(pr HashPriority, policy string, weighted bool, cause hash.EmptyCause) string {
	switch {
	case pr.InTable == 0 && pr.Hosts == 0:
		return "no hosts"
	case pr.InTable == 0 && cause != hash.EmptyNoHealthy:
		return "empty: " + cause.String() + ", so lookups here find no host"
	case pr.InTable == 0:
		return "empty: no healthy host and not in panic, so lookups here find no host"
	case pr.InTable == 1:
		return "one host answers every hash"
	case pr.Starved > 0:
		fix := "raise minimum_ring_size"
		if policy == "MAGLEV" {
			fix = "raise table_size"
		}
		return fmt.Sprintf("%d host(s) have no %s at all and get no traffic: %s", pr.Starved, map[bool]string{true: "ring entry", false: "table slot"}[policy == "RING_HASH"], fix)
	}
	ratio := fmt.Sprintf("max/min share ratio %.2f", pr.Imbalance)
	if weighted {
		ratio = fmt.Sprintf("max/min ratio of share to weighted share %.2f", pr.Imbalance)
	}
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
