package diff

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// eps is traffic.ShareNoise: the same threshold explain --watch uses.
const eps = traffic.ShareNoise

// compareReports fills d with the differences between two explain results
// of one cluster; a nil side is a cluster that does not exist there.
func compareReports(d *Cluster, o, n *traffic.ClusterReport) {
	if o != nil && n != nil {
		d.LbPolicy = changed(o.LbPolicy, n.LbPolicy)
		d.OverprovisioningFactor = changed(o.OverprovisioningFactor, n.OverprovisioningFactor)
		d.PanicThreshold = changed(o.PanicThreshold, n.PanicThreshold)
		d.TotalPanic = changed(o.TotalPanic, n.TotalPanic)
		if math.Abs(o.NoHostShare-n.NoHostShare) > eps {
			d.NoHostShare = both(o.NoHostShare, n.NoHostShare)
		}
		d.ZoneRouting = zoneChange(o.ZoneRouting, n.ZoneRouting)
	} else if n != nil {
		d.LbPolicy = &Change[string]{New: &n.LbPolicy}
	} else if o != nil {
		d.LbPolicy = &Change[string]{Old: &o.LbPolicy}
	}
	d.Priorities = priorityChanges(o, n)
	d.Localities = localityChanges(o, n)
	d.Aggregate = aggregateChange(o, n)
	d.Hosts, d.MaxShift, d.Doubled, d.Halved = hostChanges(o, n)
}

func changed[T comparable](o, n T) *Change[T] {
	if o == n {
		return nil
	}
	return both(o, n)
}

func side[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

func priorityChanges(o, n *traffic.ClusterReport) []Priority {
	levels := func(r *traffic.ClusterReport) map[int]traffic.PriorityReport {
		m := map[int]traffic.PriorityReport{}
		if r != nil {
			for _, p := range r.Priorities {
				m[p.Priority] = p
			}
		}
		return m
	}
	lo, ln := levels(o), levels(n)
	var out []Priority
	for _, p := range unionKeys(lo, ln, cmp.Compare[int]) {
		a, oka := lo[p]
		b, okb := ln[p]
		if oka && okb && a.HealthyLoad == b.HealthyLoad && a.DegradedLoad == b.DegradedLoad && a.Panic == b.Panic {
			continue
		}
		out = append(out, Priority{Priority: p,
			HealthyLoad:  &Change[int]{side(a.HealthyLoad, oka), side(b.HealthyLoad, okb)},
			DegradedLoad: &Change[int]{side(a.DegradedLoad, oka), side(b.DegradedLoad, okb)},
			Panic:        &Change[bool]{side(a.Panic, oka), side(b.Panic, okb)},
		})
	}
	return out
}

// unionKeys is the keys of a and b, each once, ordered by compare.
func unionKeys[K comparable, V any](a, b map[K]V, compare func(x, y K) int) []K {
	var ks []K
	for k := range a {
		ks = append(ks, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, compare)
	return ks
}

type locKey struct {
	p                 int
	region, zone, sub string
}

// compareLoc orders localities by priority, then region, zone, sub-zone.
func compareLoc(x, y locKey) int {
	return cmp.Or(cmp.Compare(x.p, y.p), strings.Compare(x.region+"\x00"+x.zone+"\x00"+x.sub, y.region+"\x00"+y.zone+"\x00"+y.sub))
}

func localityChanges(o, n *traffic.ClusterReport) []Locality {
	shares := func(r *traffic.ClusterReport) map[locKey]float64 {
		m := map[locKey]float64{}
		if r != nil {
			for _, p := range r.Priorities {
				for _, l := range p.Localities {
					m[locKey{p.Priority, l.Region, l.Zone, l.SubZone}] = l.Share
				}
			}
		}
		return m
	}
	so, sn := shares(o), shares(n)
	var out []Locality
	for _, k := range unionKeys(so, sn, compareLoc) {
		a, oka := so[k]
		b, okb := sn[k]
		if oka && okb && math.Abs(a-b) <= eps {
			continue
		}
		out = append(out, Locality{Priority: k.p, Region: k.region, Zone: k.zone, SubZone: k.sub,
			Share: &Change[float64]{side(a, oka), side(b, okb)}})
	}
	return out
}

func zoneChange(o, n *traffic.ZoneRoutingReport) *ZoneRouting {
	if o == nil && n == nil {
		return nil
	}
	var so, sn string
	var po, pn uint64
	if o != nil {
		so, po = o.State, o.LocalPercent
	}
	if n != nil {
		sn, pn = n.State, n.LocalPercent
	}
	if o != nil && n != nil && so == sn && po == pn {
		return nil
	}
	return &ZoneRouting{
		State:        &Change[string]{side(so, o != nil), side(sn, n != nil)},
		LocalPercent: &Change[uint64]{side(po, o != nil), side(pn, n != nil)},
	}
}

func aggregateChange(o, n *traffic.ClusterReport) *Aggregate {
	loads := func(r *traffic.ClusterReport) map[string]int {
		m := map[string]int{}
		if r != nil && r.Aggregate != nil {
			for _, c := range r.Aggregate.ClusterLoad {
				m[c.Cluster] += c.Load
			}
		}
		return m
	}
	if (o == nil || o.Aggregate == nil) && (n == nil || n.Aggregate == nil) {
		return nil
	}
	lo, ln := loads(o), loads(n)
	a := &Aggregate{}
	for _, k := range unionKeys(lo, ln, strings.Compare) {
		x, okx := lo[k]
		y, oky := ln[k]
		if okx && oky && x == y {
			continue
		}
		a.ClusterLoad = append(a.ClusterLoad, ChildLoad{Cluster: k, Load: &Change[int]{side(x, okx), side(y, oky)}})
	}
	if len(a.ClusterLoad) == 0 {
		return nil
	}
	return a
}

type hostKey struct{ cluster, addr string }

func compareHost(x, y hostKey) int {
	return strings.Compare(x.cluster+"\x00"+x.addr, y.cluster+"\x00"+y.addr)
}

// hostView is a host's share (summed when an address is listed twice),
// health and weight; known is false when explain could not compute a share.
type hostView struct {
	share  float64
	known  bool
	health string
	weight uint32
}

func hostChanges(o, n *traffic.ClusterReport) (out []Host, maxShift float64, doubled, halved int) {
	views := func(r *traffic.ClusterReport) map[hostKey]hostView {
		m := map[hostKey]hostView{}
		if r == nil {
			return m
		}
		for _, h := range r.Hosts {
			k := hostKey{h.Cluster, h.Address}
			v, seen := m[k]
			if !seen {
				v = hostView{known: true, health: h.Health, weight: h.Weight}
			}
			if h.Share == nil {
				v.known = false
			} else {
				v.share += *h.Share
			}
			m[k] = v
		}
		return m
	}
	vo, vn := views(o), views(n)
	for _, k := range unionKeys(vo, vn, compareHost) {
		a, oka := vo[k]
		b, okb := vn[k]
		h := Host{Cluster: k.cluster, Address: k.addr, Change: "modified"}
		switch {
		case !oka:
			h.Change = "added"
		case !okb:
			h.Change = "removed"
		}
		h.Share = &Change[float64]{side(a.share, oka && a.known), side(b.share, okb && b.known)}
		if oka && okb {
			h.Health = changed(a.health, b.health)
			h.Weight = changed(a.weight, b.weight)
			if a.known == b.known && math.Abs(a.share-b.share) <= eps && h.Health == nil && h.Weight == nil {
				continue
			}
		}
		// A share explain cannot compute (nil on a side where the host
		// exists) moves by an unknown amount: it is listed, not measured.
		if (h.Share.Old != nil || !oka) && (h.Share.New != nil || !okb) {
			maxShift = max(maxShift, hostShift(h))
		}
		if h.Share.Old != nil && h.Share.New != nil && *h.Share.Old > 0 {
			switch {
			case *h.Share.New > 2**h.Share.Old:
				doubled++
			case *h.Share.New < *h.Share.Old/2:
				halved++
			}
		}
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool { return hostShift(out[i]) > hostShift(out[j]) })
	for i := range out {
		out[i].Unknown = out[i].Share.Old == nil && out[i].Change != "added" || out[i].Share.New == nil && out[i].Change != "removed"
	}
	return out, maxShift, doubled, halved
}

func shareOr0(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

// hostShift is |Δ share|, a missing side counting as 0.
func hostShift(h Host) float64 { return math.Abs(shareOr0(h.Share.New) - shareOr0(h.Share.Old)) }
