package hash

import (
	"math"

	"github.com/lbctl/lbctl/lbmodel"
)

// TableCache keeps the rings and Maglev tables built for one cluster, so a
// report and its notes asking for the same one (same settings, same
// normalized vector) build it once: a 65,537-slot table per priority is
// most of explain's time on a large dump. Not safe for concurrent use.
type TableCache struct {
	rings   []cachedRing
	tables  []cachedTable
	weights []cachedWeights
}

// cachedWeights is one NormalizeWeights result, keyed by the hosts slice
// itself (first element and length: a cluster's hosts are final once its
// model is built) and the options.
type cachedWeights struct {
	first      *lbmodel.Host
	n          int
	opt        NormalizeOptions
	allHealthy int8 // 0 unknown, 1 yes, -1 no
	nw         NormalizedWeights
}

// Normalize is NormalizeWeights(hosts, opt), computed once per hosts slice
// and options: a cluster's shares and its notes both normalize each level
// (100k hosts: two passes and two vectors). The result is shared and
// read-only. Panic only matters when some host is not healthy.
func (c *TableCache) Normalize(hosts []lbmodel.Host, opt NormalizeOptions) (NormalizedWeights, error) {
	if c == nil || len(hosts) == 0 {
		return NormalizeWeights(hosts, opt)
	}
	for i := range c.weights {
		e := &c.weights[i]
		if e.first != &hosts[0] || e.n != len(hosts) || e.opt.LocalityWeighted != opt.LocalityWeighted ||
			!sameLocality(e.opt.LocalLocality, opt.LocalLocality) || e.opt.EmptyLocalityWeight != opt.EmptyLocalityWeight {
			continue
		}
		if e.opt.Panic != opt.Panic {
			if e.allHealthy == 0 {
				e.allHealthy = -1
				if allHealthy(hosts) {
					e.allHealthy = 1
				}
			}
			if e.allHealthy < 0 {
				continue
			}
		}
		return e.nw, nil
	}
	nw, err := NormalizeWeights(hosts, opt)
	if err == nil {
		c.weights = append(c.weights, cachedWeights{first: &hosts[0], n: len(hosts), opt: opt, nw: nw})
	}
	return nw, err
}

func sameLocality(a, b *lbmodel.Locality) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}

func allHealthy(hosts []lbmodel.Host) bool {
	for i := range hosts {
		if hosts[i].Health() != lbmodel.Healthy {
			return false
		}
	}
	return true
}

type cachedRing struct {
	cfg RingConfig
	r   *Ring
}

type cachedTable struct {
	cfg  MaglevConfig
	t    *MaglevTable
	full bool // has Slots (not BuildMaglevCounts)
}

// Ring is BuildRing(nw, cfg), built once per distinct input.
func (c *TableCache) Ring(nw NormalizedWeights, cfg RingConfig) (*Ring, error) {
	if c == nil {
		return BuildRing(nw, cfg)
	}
	for _, e := range c.rings {
		if e.cfg == cfg && sameVector(nw, e.r.Hosts, e.r.Keys, cfg.UseHostname) {
			r := *e.r
			r.Hosts = nw.Hosts // the caller's hosts; the points are shared, read-only
			return &r, nil
		}
	}
	r, err := BuildRing(nw, cfg)
	if err == nil {
		c.rings = append(c.rings, cachedRing{cfg, r})
	}
	return r, err
}

// Maglev is BuildMaglev(nw, cfg), built once per distinct input.
func (c *TableCache) Maglev(nw NormalizedWeights, cfg MaglevConfig) (*MaglevTable, error) {
	return c.maglev(nw, cfg, true)
}

// MaglevCounts is BuildMaglevCounts(nw, cfg), or the full table when one
// is cached.
func (c *TableCache) MaglevCounts(nw NormalizedWeights, cfg MaglevConfig) (*MaglevTable, error) {
	return c.maglev(nw, cfg, false)
}

func (c *TableCache) maglev(nw NormalizedWeights, cfg MaglevConfig, full bool) (*MaglevTable, error) {
	build := BuildMaglevCounts
	if full {
		build = BuildMaglev
	}
	if c == nil {
		return build(nw, cfg)
	}
	for _, e := range c.tables {
		if e.cfg == cfg && (e.full || !full) && sameVector(nw, e.t.Hosts, e.t.Keys, cfg.UseHostname) {
			t := *e.t
			t.Hosts = nw.Hosts
			return &t, nil
		}
	}
	t, err := build(nw, cfg)
	if err == nil {
		c.tables = append(c.tables, cachedTable{cfg, t, full})
	}
	return t, err
}

// sameVector says whether nw gives the same ring or table as a build over
// hosts with keys: same hash keys, addresses (shares are mapped back by
// address) and bit-identical weights, in the same order. Min and Max follow
// from the weights.
func sameVector(nw NormalizedWeights, hosts []WeightedHost, keys []string, useHostname bool) bool {
	if len(nw.Hosts) != len(hosts) || len(keys) != len(hosts) {
		return false
	}
	if len(hosts) > 0 && &nw.Hosts[0] == &hosts[0] { // the vector it was built from (Normalize)
		return true
	}
	for i, wh := range nw.Hosts {
		if math.Float64bits(wh.Weight) != math.Float64bits(hosts[i].Weight) ||
			wh.Host.Address != hosts[i].Host.Address || Key(wh.Host, useHostname) != keys[i] {
			return false
		}
	}
	return true
}

// SharesByAddress maps shares back onto hosts by address: the k-th share of
// an address goes to the k-th host with that address (a ring or table
// orders hosts its own way). Hosts without a share get 0. Linear: an index
// by address, not a scan of hosts per share.
func SharesByAddress(hosts []lbmodel.Host, shares []HostShare) []float64 {
	out := make([]float64, len(hosts))
	if sameAddresses(hosts, shares) { // the usual case: the table kept the hosts' order
		for i := range shares {
			out[i] = shares[i].Share
		}
		return out
	}
	head := make(map[string]int, len(hosts))
	next := make([]int, len(hosts))
	for i := len(hosts) - 1; i >= 0; i-- {
		j, ok := head[hosts[i].Address]
		if !ok {
			j = -1
		}
		next[i] = j
		head[hosts[i].Address] = i
	}
	for _, s := range shares {
		i, ok := head[s.Address]
		if !ok || i < 0 {
			continue
		}
		out[i] = s.Share
		head[s.Address] = next[i]
	}
	return out
}

// sameAddresses says whether shares name hosts' addresses one for one, in
// order; then the k-th share of an address is the k-th host with it.
func sameAddresses(hosts []lbmodel.Host, shares []HostShare) bool {
	if len(hosts) != len(shares) {
		return false
	}
	for i := range shares {
		if shares[i].Address != hosts[i].Address {
			return false
		}
	}
	return true
}
