package hashing

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/placement"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// HashOptions are `lbctl hash`'s inputs besides the cluster.
type HashOptions struct {
	Keys   []string // each hashed with xxHash64 (seed 0) as one lookup
	Hashes []uint64 // raw hashes, one lookup each
	// Request, when not nil, is one request evaluated through the hash policy.
	Request *HashRequest
	Route   string // --route: the route whose hash_policy applies
	Dump    bool   // include the ring or table of DumpPriority
	// DumpPriority is the level whose ring or table --dump lists at the
	// top level; DumpPrioritySet false means the first non-empty level.
	// Every level's is in priorities[] either way.
	DumpPriority    int
	DumpPrioritySet bool
	// Stream gives the dump as HashReport.Dump, read from the ring or
	// table itself (text output), instead of copying every entry into
	// Ring/Table and priorities[] (bounded by placement.MaxDumpEntries).
	Stream bool
	Remove []string // host addresses to remove for the what-moves comparison
	// GRPC answers as a proxyless gRPC client (--semantics grpc).
	GRPC bool
	// Pool, when set, replaces the cluster's model and settings: a subset's
	// child load balancer, which hashes over the subset's own rings or
	// tables (SubsetLoadBalancer::PrioritySubsetImpl).
	Pool *Pool
}

// Pool is a subset's child load balancer: its hosts and its policy's
// settings (analyze/subset's PoolShares).
type Pool struct {
	Model    *model.Model
	Settings model.LBSettings
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
	Semantics    string                   `json:"semantics,omitempty" yaml:"semantics,omitempty"`
	Cluster      string                   `json:"cluster" yaml:"cluster"`
	LbPolicy     string                   `json:"lb_policy" yaml:"lb_policy"`
	RingSize     *uint64                  `json:"ring_size,omitempty" yaml:"ring_size,omitempty"`
	TableSize    *uint64                  `json:"table_size,omitempty" yaml:"table_size,omitempty"`
	HashFunction string                   `json:"hash_function,omitempty" yaml:"hash_function,omitempty"`
	Priorities   []placement.HashPriority `json:"priorities" yaml:"priorities"`
	Hosts        []placement.HashHost     `json:"hosts" yaml:"hosts"`
	Lookups      []HashLookup             `json:"lookups" yaml:"lookups"`
	// HashPolicy is the policy request lookups went through († request flags).
	HashPolicy *HashPolicySource `json:"hash_policy,omitempty" yaml:"hash_policy,omitempty"`
	Ring       []RingPoint       `json:"ring,omitempty" yaml:"ring,omitempty"`
	Table      []string          `json:"table,omitempty" yaml:"table,omitempty"`
	// Dump is the --dump level's ring or table with HashOptions.Stream.
	Dump   *placement.DumpView `json:"-" yaml:"-"`
	Moved  *float64            `json:"moved,omitempty" yaml:"moved,omitempty"`
	Remove *HashRemoval        `json:"remove,omitempty" yaml:"remove,omitempty"`
	Notes  []string            `json:"notes" yaml:"notes"`
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

// RingPoint is one ring entry (the type priorities[].ring uses).
type RingPoint = placement.RingEntry

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

// Build computes cl's placement and the lookups in opt. Argument problems
// are *UsageError; a ring/table configuration Envoy rejects is a plain error.
func Build(c *config.Config, cl *config.Cluster, opt HashOptions) (*HashReport, error) {
	m := model.Get(c, cl)
	s := model.Settings(c, cl)
	if opt.Pool != nil {
		m, s = opt.Pool.Model, opt.Pool.Settings
	}
	if !model.IsHashPolicy(m.Policy) {
		what := m.Policy
		if m.IsAggregate {
			what = "the aggregate cluster type (it delegates to its children: run lbctl hash on a child)"
		}
		return nil, &model.UsageError{Msg: fmt.Sprintf("cluster %s uses %s; hash applies to RING_HASH and MAGLEV", m.Name, what)}
	}
	// A rejected value is reported where it is written.
	pos := c.Sources.Pos(cl.Proto)
	if re := s.HashSizeRejection(cl, m.Policy); re != nil {
		return nil, fmt.Errorf("%s: cluster %q: %s (Envoy rejects this cluster)", re.Pos, m.Name, re.Msg)
	}
	if opt.GRPC && m.Policy != "RING_HASH" {
		return nil, fmt.Errorf("%s: cluster %q: gRPC has no %s policy: it rejects the cluster", pos, m.Name, m.Policy)
	}
	hs, s, err := placement.ForCluster(c, m, s, opt.GRPC)
	if err != nil {
		return nil, fmt.Errorf("%s: cluster %q: %v", pos, m.Name, err)
	}
	r := &HashReport{Cluster: m.Name, LbPolicy: m.Policy, Priorities: []placement.HashPriority{}, Hosts: []placement.HashHost{}, Lookups: []HashLookup{}, Notes: []string{}}
	if m.Policy == "RING_HASH" {
		// The first level with a ring (P0 unless it is empty): each level's
		// own size is in priorities[].size.
		var n uint64
		if k := firstNonEmpty(hs); k >= 0 {
			n = hs.Levels[k].Size()
		}
		r.RingSize = &n
		r.HashFunction = "XX_HASH"
		if s.Ring.HashFunction == hash.HashMurmur2 {
			r.HashFunction = "MURMUR_HASH_2"
		}
	} else {
		n := s.Maglev.TableSize
		r.TableSize = &n
	}
	if len(m.Hosts) == 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s has no endpoints: every lookup finds no host", m.Name))
	}
	if opt.GRPC {
		r.Semantics = "grpc"
		r.Notes = append(r.Notes, fmt.Sprintf("gRPC semantics: the ring is capped at %d entries, each endpoint's weight is multiplied by its locality's weight, endpoints not HEALTHY or UNKNOWN and localities without a weight are dropped, and every request uses the first priority with endpoints", grpc.DefaultRingCap))
	}
	for i := range hs.Levels {
		pr, hosts := placement.Describe(hs, i, m.Policy)
		if opt.Dump && !opt.Stream {
			if n := placement.View(hs, i).Len(); n > placement.MaxDumpEntries {
				return nil, fmt.Errorf("%s: P%d's %s has %d entries, more than the %d a JSON or YAML report holds (lbctl's limit on dumps); use -o text, which streams it", option.Dump,
					i, placement.StructureName(m.Policy), n, placement.MaxDumpEntries)
			}
			placement.Dump(hs, i, &pr)
		}
		r.Priorities = append(r.Priorities, pr)
		r.Hosts = append(r.Hosts, hosts...)
		for _, w := range hs.Levels[i].Warnings() {
			r.Notes = append(r.Notes, fmt.Sprintf("P%d: %s", i, w))
		}
	}
	if len(hs.Levels) > 1 {
		r.Notes = append(r.Notes, "the hash first picks the priority (hash % 100 + 1 against the cumulative priority loads), then the same hash is looked up in that priority's "+placement.StructureName(m.Policy))
	}
	if s.Ring.UseHostname && m.Policy == "RING_HASH" || s.Maglev.UseHostname && m.Policy == "MAGLEV" {
		r.Notes = append(r.Notes, "use_hostname_for_hashing: hosts are placed by hostname (or metadata hash_key), not by address")
	}

	for _, k := range opt.Keys {
		h := hash.XXHash64(k)
		r.Lookups = append(r.Lookups, lookup(hs, k, h))
	}
	for _, h := range opt.Hashes {
		r.Lookups = append(r.Lookups, lookup(hs, strconv.FormatUint(h, 10), h))
	}
	if opt.Request != nil {
		l, src, err := requestLookup(c, cl, s, hs, opt)
		if err != nil {
			return nil, err
		}
		r.Lookups = append(r.Lookups, l)
		r.HashPolicy = &src
	}
	if opt.Dump && len(hs.Levels) > 0 {
		k := opt.DumpPriority
		if !opt.DumpPrioritySet {
			k = max(0, firstNonEmpty(hs))
		}
		if k < 0 || k >= len(hs.Levels) {
			return nil, &model.UsageError{Msg: fmt.Sprintf("%s %d: %s has priorities 0..%d", option.Priority, opt.DumpPriority, m.Name, len(hs.Levels)-1)}
		}
		if opt.Stream {
			v := placement.View(hs, k)
			r.Dump = &v
		}
		// Without Stream the loop above has dumped every level already.
		pr := r.Priorities[k]
		if len(pr.Ring) > 0 {
			r.Ring = pr.Ring
		}
		r.Table = pr.Table
	}
	if len(opt.Remove) > 0 {
		rm, err := removal(c, m, s, model.LocalLocality(c, model.Options{}), hs, opt.Remove)
		if err != nil {
			return nil, err
		}
		r.Remove = rm
		own := rm.RingHash
		if m.Policy == "MAGLEV" {
			own = rm.Maglev
		}
		v := lbmodel.CleanFraction(own.Moved)
		r.Moved = &v
	}
	return r, nil
}

// lookup is ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost for
// hash h: choosePriority on h, then that level's ring or table (attempt 0).
func lookup(hs *placement.Setup, input string, h uint64) HashLookup {
	l := HashLookup{Input: input, Hash: &h}
	p, degraded := hs.Choose(h)
	l.Priority, l.Degraded = p, degraded
	if p >= len(hs.Levels) {
		l.Reason = "the cluster has no hosts"
		return l
	}
	pl := &hs.Levels[p]
	addr, pos, ok := pl.Pick(h)
	if !ok {
		l.Reason = fmt.Sprintf("P%d's %s is empty (%s): Envoy finds no host", p, placement.StructureName(hs.Policy), hs.EmptyCause(p))
		if degraded {
			l.Reason = fmt.Sprintf("chosen through P%d's degraded load, but degraded hosts are only in the %s in panic: Envoy finds no host", p, placement.StructureName(hs.Policy))
		}
		return l
	}
	l.Host, l.Position = &addr, &pos
	return l
}

// requestLookup hashes the request through the hash policy s names:
// Build's settings (opt.Pool's when set).
func requestLookup(c *config.Config, cl *config.Cluster, s model.LBSettings, hs *placement.Setup, opt HashOptions) (HashLookup, HashPolicySource, error) {
	src, err := requestHashPolicy(c, cl, s, opt.Route)
	if err != nil {
		return HashLookup{}, src, err
	}
	req, input, err := hashRequest(opt.Request)
	if err != nil {
		return HashLookup{}, src, err
	}
	if src.From == "" {
		return HashLookup{Input: input, Reason: fmt.Sprintf("no hash policy: no route targets %s (name one with %s) and the cluster has none, so Envoy picks a random host", cl.Name(), option.Route)}, src, nil
	}
	h, ok, err := hash.Generate(src.Parsed, req)
	if err != nil {
		return HashLookup{}, src, fmt.Errorf("%s: %v", src.From, err)
	}
	if !ok {
		why := "no hash policy on " + src.From
		if len(src.Parsed) > 0 {
			why = fmt.Sprintf("none of the hash policies of %s (%s) produced a hash from this request", src.From, strings.Join(src.Policies, "; "))
			if slices.ContainsFunc(src.Parsed, func(p hash.Policy) bool { return p.Kind == hash.HashByCookie && p.CookieTTLSet }) {
				why += " (a cookie policy with a ttl would have Envoy generate the cookie from the connection's addresses, which lbctl does not know)"
			}
		}
		return HashLookup{Input: input, Reason: why + ": Envoy picks a random priority and host"}, src, nil
	}
	l := lookup(hs, input, h)
	return l, src, nil
}

// RequestHash is the hash a route's hash_policy gives this request, as
// Http::HashPolicyImpl::generateHash does (no cookie is generated: the
// weighted-cluster pick passes no callback); ok is false when no policy
// yields one. desc names the policies.
func RequestHash(ps []*routev3.RouteAction_HashPolicy, rq HashRequest) (h uint64, ok bool, desc string, err error) {
	src, err := convertHashPolicies("the route's hash_policy", ps)
	if err != nil {
		return 0, false, "", err
	}
	req, _, err := hashRequest(&rq)
	if err != nil {
		return 0, false, "", err
	}
	h, ok, err = hash.Generate(src.Parsed, req)
	return h, ok, strings.Join(src.Policies, "; "), err
}

// hashRequest is a request's hash inputs as lbmodel's, and their
// description for output.
func hashRequest(rq *HashRequest) (hash.Request, string, error) {
	req := hash.Request{Headers: map[string][]string{}}
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
			return req, "", &model.UsageError{Msg: fmt.Sprintf("%s %q: not an IP address", option.SourceIP, rq.SourceIP)}
		}
		req.SourceIP = ip.String()
		parts = append(parts, "source-ip "+req.SourceIP)
	}
	if rq.Path != "" {
		req.Headers[":path"] = []string{rq.Path}
		parts = append(parts, "path "+rq.Path)
	}
	return req, "request: " + strings.Join(parts, ", "), nil
}

// removal rebuilds the cluster without the given hosts, for both ring hash
// and Maglev, and compares each with the full cluster.
func removal(c *config.Config, m *model.Model, s model.LBSettings, local *lbmodel.Locality, own *placement.Setup, addrs []string) (*HashRemoval, error) {
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
			return nil, &model.UsageError{Msg: fmt.Sprintf("%s %q: %s has no such host; its hosts are: %s", option.Remove, a, config.Safe(m.Name), config.List(list, 12))}
		}
	}
	rest := hash.WithoutAddresses(m.Hosts, addrs)
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
		if policy != own.Policy {
			before, err = placement.Build(policy, m.Hosts, m, s, local)
		}
		var after *placement.Setup
		if err == nil {
			after, err = placement.Build(policy, rest, m, s, local)
		}
		if err != nil {
			if policy == own.Policy {
				return nil, err
			}
			mr.Error = err.Error()
			continue
		}
		moved, to, err := placement.Moved(before, after)
		if err != nil {
			return nil, err
		}
		mr.Moved = lbmodel.CleanFraction(moved)
		for h, f := range to {
			mr.To = append(mr.To, Dest{Host: h, Share: lbmodel.CleanFraction(f)})
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
// answered: the minimum that has to move. Each level's removed shares are
// listed once (by an address set), then summed in the same order as before.
func removedShare(hs *placement.Setup, addrs []string) float64 {
	gone := make(map[string]bool, len(addrs))
	for _, a := range addrs {
		gone[a] = true
	}
	perLevel := map[int][]float64{}
	total := 0.0
	for r := uint64(0); r < 100; r++ {
		p, _ := hs.Choose(r)
		if p >= len(hs.Levels) {
			continue
		}
		removed, ok := perLevel[p]
		if !ok {
			for _, s := range hs.Levels[p].Shares() {
				if gone[s.Address] {
					removed = append(removed, s.Share)
				}
			}
			perLevel[p] = removed
		}
		for _, v := range removed {
			total += v / 100
		}
	}
	return total
}

// firstNonEmpty is the first level whose ring or table has entries, -1
// when none has.
func firstNonEmpty(hs *placement.Setup) int {
	for i := range hs.Levels {
		if hs.Levels[i].Size() > 0 {
			return i
		}
	}
	return -1
}
