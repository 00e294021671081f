package analyze

import (
	"fmt"
	"math"
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/lbmodel"
)

// HashOptions are `lbctl hash`'s inputs besides the cluster.
type HashOptions struct {
	Keys   []string // each hashed with xxHash64 (seed 0) as one lookup
	Hashes []uint64 // raw hashes, one lookup each
	// Request, when not nil, is one request evaluated through the hash policy.
	Request *HashRequest
	Route   string // --route: the route whose hash_policy applies
	Dump    bool   // include the ring or table of DumpPriority
	// DumpPriority is the level whose ring or table --dump lists.
	DumpPriority int
	Remove       []string // host addresses to remove for the what-moves comparison
}

// HashRequest is one request's hash inputs.
type HashRequest struct {
	Headers  [][2]string // name, value; one entry each
	Cookies  [][2]string // name, value
	SourceIP string
	Path     string // :path, for query_parameter policies
}

// HashReport is `lbctl hash`'s result; field names are contract.md's.
type HashReport struct {
	Cluster      string         `json:"cluster" yaml:"cluster"`
	LbPolicy     string         `json:"lb_policy" yaml:"lb_policy"`
	RingSize     *uint64        `json:"ring_size,omitempty" yaml:"ring_size,omitempty"`
	TableSize    *uint64        `json:"table_size,omitempty" yaml:"table_size,omitempty"`
	HashFunction string         `json:"hash_function,omitempty" yaml:"hash_function,omitempty"`
	Priorities   []HashPriority `json:"priorities" yaml:"priorities"`
	Hosts        []HashHost     `json:"hosts" yaml:"hosts"`
	Lookups      []HashLookup   `json:"lookups" yaml:"lookups"`
	// HashPolicy is the policy request lookups went through († request flags).
	HashPolicy *HashPolicySource `json:"hash_policy,omitempty" yaml:"hash_policy,omitempty"`
	Ring       []RingPoint       `json:"ring,omitempty" yaml:"ring,omitempty"`
	Table      []string          `json:"table,omitempty" yaml:"table,omitempty"`
	Moved      *float64          `json:"moved,omitempty" yaml:"moved,omitempty"`
	Remove     *HashRemoval      `json:"remove,omitempty" yaml:"remove,omitempty"`
	Notes      []string          `json:"notes" yaml:"notes"`
}

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

// HashLookup is where one hash goes.
type HashLookup struct {
	Input    string  `json:"input" yaml:"input"`
	Hash     *uint64 `json:"hash" yaml:"hash"`
	Priority int     `json:"priority" yaml:"priority"`
	Degraded bool    `json:"degraded,omitempty" yaml:"degraded,omitempty"`
	Host     *string `json:"host" yaml:"host"`
	// Position is the ring entry index or Maglev slot that answered.
	Position *uint64 `json:"position,omitempty" yaml:"position,omitempty"`
	Reason   string  `json:"reason,omitempty" yaml:"reason,omitempty"`
}

// RingPoint is one ring entry.
type RingPoint struct {
	Hash uint64 `json:"hash" yaml:"hash"`
	Host string `json:"host" yaml:"host"`
}

// HashRemoval compares ring hash and Maglev when hosts are removed.
type HashRemoval struct {
	Addresses []string     `json:"addresses" yaml:"addresses"`
	RingHash  *MovedReport `json:"ring_hash,omitempty" yaml:"ring_hash,omitempty"`
	Maglev    *MovedReport `json:"maglev,omitempty" yaml:"maglev,omitempty"`
	// MaglevOverRing is maglev.moved / ring_hash.moved († both computed).
	MaglevOverRing float64 `json:"maglev_over_ring,omitempty" yaml:"maglev_over_ring,omitempty"`
}

// MovedReport is one algorithm's what-moves result.
type MovedReport struct {
	// Config describes the ring or table compared (sizes).
	Config string `json:"config" yaml:"config"`
	// Moved is the fraction of the whole hash space whose host changes.
	Moved float64 `json:"moved" yaml:"moved"`
	// Removed is the part of Moved that the removed hosts answered before;
	// the rest is churn among hosts that stay.
	Removed float64 `json:"removed" yaml:"removed"`
	To      []Dest  `json:"to" yaml:"to"`
	Error   string  `json:"error,omitempty" yaml:"error,omitempty"`
}

// Dest is where part of the moved hash space goes.
type Dest struct {
	Host  string  `json:"host" yaml:"host"`
	Share float64 `json:"share" yaml:"share"`
}

// IsHashPolicy reports whether lbctl hash applies to policy.
func IsHashPolicy(policy string) bool { return policy == "RING_HASH" || policy == "MAGLEV" }

// Hash computes cl's placement and the lookups in opt. Argument problems
// are *UsageError; a ring/table configuration Envoy rejects is a plain error.
func (c *Config) Hash(cl *Cluster, opt HashOptions) (*HashReport, error) {
	m := c.Model(cl)
	s := c.Settings(cl)
	if !IsHashPolicy(m.Policy) {
		what := m.Policy
		if m.IsAggregate {
			what = "the aggregate cluster type (it delegates to its children: run lbctl hash on a child)"
		}
		return nil, &UsageError{fmt.Sprintf("cluster %s uses %s; hash applies to RING_HASH and MAGLEV", m.Name, what)}
	}
	pos := c.Sources.Pos(cl.Proto)
	switch {
	case m.Policy == "RING_HASH":
		if err := s.Ring.Validate(); err != nil {
			return nil, fmt.Errorf("%s: cluster %q: %v (Envoy rejects this cluster)", pos, m.Name, err)
		}
	default:
		if err := s.Maglev.Validate(); err != nil {
			return nil, fmt.Errorf("%s: cluster %q: %v (Envoy rejects this cluster)", pos, m.Name, err)
		}
	}
	var local *lbmodel.Locality
	if l, ok := c.nodeLocality(ExplainOptions{}); ok {
		local = &l
	}
	hs, err := buildHashSetup(m.Policy, m.Hosts, m, s, local)
	if err != nil {
		return nil, fmt.Errorf("%s: cluster %q: %v", pos, m.Name, err)
	}
	r := &HashReport{Cluster: m.Name, LbPolicy: m.Policy, Priorities: []HashPriority{}, Hosts: []HashHost{}, Lookups: []HashLookup{}, Notes: []string{}}
	if m.Policy == "RING_HASH" {
		var n uint64
		if len(hs.levels) > 0 {
			n = hs.levels[0].size()
		}
		r.RingSize = &n
		r.HashFunction = "XX_HASH"
		if s.Ring.HashFunction == lbmodel.HashMurmur2 {
			r.HashFunction = "MURMUR_HASH_2"
		}
	} else {
		n := s.Maglev.TableSize
		r.TableSize = &n
	}
	if len(m.Hosts) == 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s has no endpoints: every lookup finds no host", m.Name))
	}
	for i := range hs.levels {
		pr, hosts := levelReport(hs, i, m.Policy)
		r.Priorities = append(r.Priorities, pr)
		r.Hosts = append(r.Hosts, hosts...)
		for _, w := range hs.levels[i].warnings() {
			r.Notes = append(r.Notes, fmt.Sprintf("P%d: %s", i, w))
		}
	}
	if len(hs.levels) > 1 {
		r.Notes = append(r.Notes, "the hash first picks the priority (hash % 100 + 1 against the cumulative priority loads), then the same hash is looked up in that priority's "+structureName(m.Policy))
	}
	if s.Ring.UseHostname && m.Policy == "RING_HASH" || s.Maglev.UseHostname && m.Policy == "MAGLEV" {
		r.Notes = append(r.Notes, "use_hostname_for_hashing: hosts are placed by hostname (or metadata hash_key), not by address")
	}

	for _, k := range opt.Keys {
		h := lbmodel.XXHash64(k)
		r.Lookups = append(r.Lookups, lookup(hs, k, h))
	}
	for _, h := range opt.Hashes {
		r.Lookups = append(r.Lookups, lookup(hs, strconv.FormatUint(h, 10), h))
	}
	if opt.Request != nil {
		l, src, err := c.requestLookup(cl, hs, opt)
		if err != nil {
			return nil, err
		}
		r.Lookups = append(r.Lookups, l)
		r.HashPolicy = &src
	}
	if opt.Dump && len(hs.levels) > 0 {
		if opt.DumpPriority < 0 || opt.DumpPriority >= len(hs.levels) {
			return nil, &UsageError{fmt.Sprintf("--priority %d: %s has priorities 0..%d", opt.DumpPriority, m.Name, len(hs.levels)-1)}
		}
		pl := &hs.levels[opt.DumpPriority]
		if pl.ring != nil {
			r.Ring = make([]RingPoint, len(pl.ring.Entries))
			for i, e := range pl.ring.Entries {
				r.Ring[i] = RingPoint{Hash: e.Hash, Host: pl.ring.Hosts[e.Host].Host.Address}
			}
		} else {
			r.Table = make([]string, len(pl.table.Slots))
			for i, sl := range pl.table.Slots {
				r.Table[i] = pl.table.Hosts[sl].Host.Address
			}
		}
	}
	if len(opt.Remove) > 0 {
		rm, err := c.removal(m, s, local, hs, opt.Remove)
		if err != nil {
			return nil, err
		}
		r.Remove = rm
		own := rm.RingHash
		if m.Policy == "MAGLEV" {
			own = rm.Maglev
		}
		v := own.Moved
		r.Moved = &v
	}
	return r, nil
}

func structureName(policy string) string {
	if policy == "RING_HASH" {
		return "ring"
	}
	return "Maglev table"
}

// levelReport describes level i and its hosts (every host of the level;
// those outside the ring or table with 0 entries).
func levelReport(hs *hashSetup, i int, policy string) (HashPriority, []HashHost) {
	pl := &hs.levels[i]
	pr := HashPriority{Priority: i, Panic: pl.panic, Hosts: len(pl.hosts), Size: pl.size()}
	if i < len(hs.load.Levels) {
		pr.HealthyLoad, pr.DegradedLoad = hs.load.Levels[i].HealthyLoad, hs.load.Levels[i].DegradedLoad
	}
	shares := pl.shares()
	weights := pl.weights()
	pr.InTable = len(weights)
	if pl.ring != nil {
		pr.MinEntries, pr.MaxEntries = pl.ring.MinHashesPerHost, pl.ring.MaxHashesPerHost
	} else {
		pr.MinEntries, pr.MaxEntries = pl.table.MinEntriesPerHost, pl.table.MaxEntriesPerHost
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
	for _, h := range pl.hosts {
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

// lookup is ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost for
// hash h: choosePriority on h, then that level's ring or table (attempt 0).
func lookup(hs *hashSetup, input string, h uint64) HashLookup {
	l := HashLookup{Input: input, Hash: &h}
	p, degraded := hs.choose(h)
	l.Priority, l.Degraded = p, degraded
	if p >= len(hs.levels) {
		l.Reason = "the cluster has no hosts"
		return l
	}
	pl := &hs.levels[p]
	addr, pos, ok := pl.pick(h)
	if !ok {
		l.Reason = fmt.Sprintf("P%d's %s is empty (no healthy host, not in panic): Envoy finds no host", p, structureName(hs.policy))
		if degraded {
			l.Reason = fmt.Sprintf("chosen through P%d's degraded load, but degraded hosts are only in the %s in panic: Envoy finds no host", p, structureName(hs.policy))
		}
		return l
	}
	l.Host, l.Position = &addr, &pos
	return l
}

// requestLookup hashes the request through its hash policy.
func (c *Config) requestLookup(cl *Cluster, hs *hashSetup, opt HashOptions) (HashLookup, HashPolicySource, error) {
	rq := opt.Request
	src, err := c.RequestHashPolicy(cl, opt.Route)
	if err != nil {
		return HashLookup{}, src, err
	}
	req := lbmodel.Request{Headers: map[string][]string{}}
	var parts []string
	for _, h := range rq.Headers {
		req.Headers[strings.ToLower(h[0])] = append(req.Headers[strings.ToLower(h[0])], h[1])
		parts = append(parts, "header "+h[0]+"="+h[1])
	}
	for _, ck := range rq.Cookies {
		req.Headers["cookie"] = append(req.Headers["cookie"], ck[0]+"="+ck[1])
		parts = append(parts, "cookie "+ck[0]+"="+ck[1])
	}
	if rq.SourceIP != "" {
		ip, err := netip.ParseAddr(rq.SourceIP)
		if err != nil {
			return HashLookup{}, src, &UsageError{fmt.Sprintf("--source-ip %q: not an IP address", rq.SourceIP)}
		}
		req.SourceIP = ip.String()
		parts = append(parts, "source-ip "+req.SourceIP)
	}
	if rq.Path != "" {
		req.Headers[":path"] = []string{rq.Path}
		parts = append(parts, "path "+rq.Path)
	}
	input := "request: " + strings.Join(parts, ", ")
	if src.From == "" {
		return HashLookup{Input: input, Reason: fmt.Sprintf("no hash policy: no route targets %s (name one with --route) and the cluster has none, so Envoy picks a random host", cl.Name())}, src, nil
	}
	h, ok, err := lbmodel.GenerateHash(src.Parsed, req)
	if err != nil {
		return HashLookup{}, src, fmt.Errorf("%s: %v", src.From, err)
	}
	if !ok {
		why := "no hash policy on " + src.From
		if len(src.Parsed) > 0 {
			why = fmt.Sprintf("none of the hash policies of %s (%s) produced a hash from this request", src.From, strings.Join(src.Policies, "; "))
			if slices.ContainsFunc(src.Parsed, func(p lbmodel.HashPolicy) bool { return p.Kind == lbmodel.HashByCookie && p.CookieTTLSet }) {
				why += " (a cookie policy with a ttl would have Envoy generate the cookie from the connection's addresses, which lbctl does not know)"
			}
		}
		return HashLookup{Input: input, Reason: why + ": Envoy picks a random priority and host"}, src, nil
	}
	l := lookup(hs, input, h)
	return l, src, nil
}

// removal rebuilds the cluster without the given hosts, for both ring hash
// and Maglev, and compares each with the full cluster.
func (c *Config) removal(m *Model, s LBSettings, local *lbmodel.Locality, own *hashSetup, addrs []string) (*HashRemoval, error) {
	known := map[string]bool{}
	for _, h := range m.Hosts {
		known[h.Address] = true
	}
	for _, a := range addrs {
		if !known[a] {
			var list []string
			for _, h := range m.Hosts {
				list = append(list, h.Address)
			}
			if len(list) > 12 {
				list = append(list[:12], "…")
			}
			return nil, &UsageError{fmt.Sprintf("--remove %q: %s has no such host; its hosts are: %s", a, m.Name, strings.Join(list, ", "))}
		}
	}
	rest := lbmodel.WithoutAddresses(m.Hosts, addrs)
	rm := &HashRemoval{Addresses: append([]string{}, addrs...)}
	for _, policy := range []string{"RING_HASH", "MAGLEV"} {
		mr := &MovedReport{To: []Dest{}}
		if policy == "RING_HASH" {
			rm.RingHash = mr
			mr.Config = fmt.Sprintf("minimum_ring_size %d, maximum_ring_size %d", s.Ring.MinRingSize, s.Ring.MaxRingSize)
		} else {
			rm.Maglev = mr
			mr.Config = fmt.Sprintf("table_size %d", s.Maglev.TableSize)
		}
		before := own
		var err error
		if policy != own.policy {
			before, err = buildHashSetup(policy, m.Hosts, m, s, local)
		}
		var after *hashSetup
		if err == nil {
			after, err = buildHashSetup(policy, rest, m, s, local)
		}
		if err != nil {
			if policy == own.policy {
				return nil, err
			}
			mr.Error = err.Error()
			continue
		}
		moved, to, err := setupMoved(before, after)
		if err != nil {
			return nil, err
		}
		mr.Moved = moved
		for h, f := range to {
			mr.To = append(mr.To, Dest{Host: h, Share: f})
		}
		sort.Slice(mr.To, func(i, j int) bool {
			if mr.To[i].Share != mr.To[j].Share {
				return mr.To[i].Share > mr.To[j].Share
			}
			return mr.To[i].Host < mr.To[j].Host
		})
		mr.Removed = removedShare(before, addrs)
	}
	if rm.RingHash.Error == "" && rm.Maglev.Error == "" && rm.RingHash.Moved > 0 {
		rm.MaglevOverRing = rm.Maglev.Moved / rm.RingHash.Moved
	}
	return rm, nil
}

// removedShare is the fraction of the whole hash space the removed hosts
// answered: the minimum that has to move.
func removedShare(hs *hashSetup, addrs []string) float64 {
	total := 0.0
	for r := uint64(0); r < 100; r++ {
		p, _ := hs.choose(r)
		if p >= len(hs.levels) {
			continue
		}
		for _, s := range hs.levels[p].shares() {
			if slices.Contains(addrs, s.Address) {
				total += s.Share / 100
			}
		}
	}
	return total
}
