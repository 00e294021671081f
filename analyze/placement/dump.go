package placement

import lbhash "github.com/lbctl/lbctl/lbmodel/hash"

// MaxDumpEntries bounds a ring or table dump built into a JSON or YAML
// report (every entry an object in memory, then encoded). Text output
// streams the dump from the ring or table itself and has no bound.
const MaxDumpEntries = 1 << 20

// DumpView reads one level's ring (hash order) or Maglev table (slot
// order) entry by entry, without a copy.
type DumpView struct {
	ring  *lbhash.Ring
	table *lbhash.MaglevTable
}

// View is level i's ring or table.
func View(hs *Setup, i int) DumpView {
	return DumpView{ring: hs.Levels[i].Ring, table: hs.Levels[i].Table}
}

// IsRing reports a ring (entries have hashes) rather than a table.
func (v DumpView) IsRing() bool { return v.ring != nil }

// Len is the number of entries or slots.
func (v DumpView) Len() int {
	switch {
	case v.ring != nil:
		return v.ring.Len()
	case v.table != nil:
		return len(v.table.Slots)
	}
	return 0
}

// Entry is entry (or slot) k: its hash (rings only) and host address.
func (v DumpView) Entry(k int) (hash uint64, host string) {
	if v.ring != nil {
		return v.ring.Hashes[k], v.ring.Hosts[v.ring.EntryHosts[k]].Host.Address
	}
	return 0, v.table.Hosts[v.table.Slots[k]].Host.Address
}

// Addresses lists the hosts an entry can name (for column widths).
func (v DumpView) Addresses() []string {
	var hosts []lbhash.WeightedHost
	if v.ring != nil {
		hosts = v.ring.Hosts
	} else if v.table != nil {
		hosts = v.table.Hosts
	}
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = h.Host.Address
	}
	return out
}
