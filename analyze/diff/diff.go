package diff

import (
	"fmt"

	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// Explainer computes clusters' traffic pictures, one per cluster in order:
// explain.Build or grpc.Build, passed in by the command so that this report
// imports no other report (ARCHITECTURE.md).
type Explainer func(c *config.Config, cls []*config.Cluster) ([]traffic.ClusterReport, error)

// explainAll explains one side's clusters in one call, so whole-config
// state (routes, gRPC's cluster map) is built once per side, not once per
// cluster; when that call fails, cluster by cluster, so that each error
// is noted on its own cluster.
func explainAll(ex Explainer, c *config.Config, cls []*config.Cluster) ([]*traffic.ClusterReport, []error) {
	out, errs := make([]*traffic.ClusterReport, len(cls)), make([]error, len(cls))
	if len(cls) == 0 {
		return out, errs
	}
	if rs, err := ex(c, cls); err == nil && len(rs) == len(cls) {
		for i := range rs {
			out[i] = &rs[i]
		}
		return out, errs
	}
	for i, cl := range cls {
		rs, err := ex(c, []*config.Cluster{cl})
		if err == nil && len(rs) != 1 {
			err = fmt.Errorf("cluster %s: no report", cl.Name())
		}
		if err != nil {
			errs[i] = err
			continue
		}
		out[i] = &rs[0]
	}
	return out, errs
}

// Options are Build's inputs besides the two configurations.
type Options struct {
	Explain Explainer
	// Semantics is "" for Envoy's, "grpc" for a proxyless gRPC client's
	// (explain is then grpc's; key space is gRPC's ring).
	Semantics string
}

// Build compares old and new: explain runs only for the clusters whose
// inputs differ (Changed), and clusters whose picture stays the same are
// left out. Lint findings are compared separately (CompareFindings).
func Build(old, new *config.Config, opt Options) (*Report, error) {
	return BuildSides(Prepare(old), Prepare(new), opt)
}

// BuildSides is Build over prepared sides: pair the clusters whose inputs
// changed, explain them, compare each pair, keep those whose traffic moved.
func BuildSides(olds, news *Side, opt Options) (*Report, error) {
	r := newReport(opt.Semantics)
	pairs := Changed(olds, news)
	reps := explainPairs(opt.Explain, olds.Config, news.Config, pairs)
	for i, p := range pairs {
		d := compareSides(olds.Config, news.Config, p, reps[i])
		if p.Old != nil && p.New != nil {
			compareModified(&d, olds, news, p, reps[i], opt.Semantics == "grpc")
			if !d.differs() {
				continue
			}
			if !d.movesTraffic() {
				r.settingsOnly = append(r.settingsOnly, d.Name)
				continue
			}
		}
		if p.New != nil {
			d.At = changedAt(news.Config, p.New, &d)
		}
		r.Clusters = append(r.Clusters, d)
	}
	renames(r.Clusters, olds.Config, news.Config)
	sortClusters(r.Clusters)
	r.finish()
	return r, nil
}

// newReport is an empty report: its lists [] rather than null.
func newReport(semantics string) *Report {
	return &Report{Semantics: semantics, Clusters: []Cluster{}, Findings: Findings{New: []Finding{}, Fixed: []Finding{}}}
}

// explained is one pair's explain results, a side's error when it failed.
type explained struct {
	old, new       *traffic.ClusterReport
	oldErr, newErr error
}

// explainPairs explains each side's clusters of pairs in one call per side
// (explainAll) and hands the results back pair by pair.
func explainPairs(ex Explainer, old, new *config.Config, pairs []Pair) []explained {
	var oldCls, newCls []*config.Cluster
	for _, p := range pairs {
		if p.Old != nil {
			oldCls = append(oldCls, p.Old)
		}
		if p.New != nil {
			newCls = append(newCls, p.New)
		}
	}
	oldReps, oldErrs := explainAll(ex, old, oldCls)
	newReps, newErrs := explainAll(ex, new, newCls)
	out := make([]explained, len(pairs))
	for i, p := range pairs {
		if p.Old != nil {
			out[i].old, out[i].oldErr = oldReps[0], oldErrs[0]
			oldReps, oldErrs = oldReps[1:], oldErrs[1:]
		}
		if p.New != nil {
			out[i].new, out[i].newErr = newReps[0], newErrs[0]
			newReps, newErrs = newReps[1:], newErrs[1:]
		}
	}
	return out
}

// compareSides is one pair's entry: added, removed or modified, where each
// side is defined, explain's errors, and the two explain results compared.
func compareSides(old, new *config.Config, p Pair, e explained) Cluster {
	d := Cluster{Name: p.Name, Change: "modified", File: &Change[string]{}}
	if p.Old == nil {
		d.Change = "added"
	} else {
		if e.oldErr != nil {
			d.Notes = append(d.Notes, "OLD: "+e.oldErr.Error())
		}
		d.File.Old = ptr(old.Sources.Pos(p.Old.Proto).String())
	}
	if p.New == nil {
		d.Change = "removed"
	} else {
		if e.newErr != nil {
			d.Notes = append(d.Notes, "NEW: "+e.newErr.Error())
		}
		d.File.New = ptr(new.Sources.Pos(p.New.Proto).String())
	}
	compareReports(&d, e.old, e.new)
	return d
}

// compareModified adds what only a cluster on both sides has: its subset
// change, its routes' hash policies and, when both explained, the key
// space that moved.
func compareModified(d *Cluster, olds, news *Side, p Pair, e explained, grpc bool) {
	d.Subset = subsetChange(olds.Config, news.Config, p)
	if ro, rn := olds.routeHash[p.Name], news.routeHash[p.Name]; !slices.Equal(ro, rn) {
		d.HashPolicy = both(append([]string{}, ro...), append([]string{}, rn...))
	}
	if e.old == nil || e.new == nil {
		return
	}
	h, err := hashChange(olds.Config, news.Config, p, grpc)
	if err != nil {
		d.Notes = append(d.Notes, "key space: "+err.Error())
	} else if h != nil && h.Moved > 0 {
		d.Hash = h
	}
}

func ptr[T any](v T) *T { return &v }

// differs reports whether a modified cluster's picture changed.
func (d *Cluster) differs() bool {
	return d.LbPolicy != nil || d.OverprovisioningFactor != nil || d.PanicThreshold != nil || d.TotalPanic != nil ||
		d.NoHostShare != nil || len(d.Priorities) > 0 || d.Aggregate != nil || len(d.Localities) > 0 ||
		d.ZoneRouting != nil || len(d.Hosts) > 0 || d.Hash != nil || d.HashPolicy != nil || d.Subset != nil || len(d.Notes) > 0
}

// movesTraffic reports whether a modified cluster's traffic changed, not
// only its settings (policy, overprovisioning, panic threshold, a host's
// weight or health that moves no share today).
func (d *Cluster) movesTraffic() bool {
	if d.TotalPanic != nil || d.NoHostShare != nil || len(d.Priorities) > 0 || d.Aggregate != nil || len(d.Localities) > 0 ||
		d.ZoneRouting != nil || d.Hash != nil || d.HashPolicy != nil || d.Subset != nil || len(d.Notes) > 0 {
		return true
	}
	for _, h := range d.Hosts {
		if h.Change != "modified" || h.Share.Old == nil || h.Share.New == nil || math.Abs(*h.Share.New-*h.Share.Old) > eps {
			return true
		}
	}
	return false
}

// finish fills the summary; called again after the findings are set.
func (r *Report) finish() {
	r.Summary = Summary{ClustersChanged: len(r.Clusters), NewFindings: len(r.Findings.New), FixedFindings: len(r.Findings.Fixed),
		SettingsOnly: r.settingsOnly}
	for _, c := range r.Clusters {
		r.Summary.MaxShift = max(r.Summary.MaxShift, c.MaxShift)
		if c.Hash != nil {
			r.Summary.MaxMoved = max(r.Summary.MaxMoved, c.Hash.Moved)
		}
	}
	r.Changed = len(r.Clusters) > 0
}

// SetFindings records the lint comparison and updates the summary.
func (r *Report) SetFindings(f Findings) {
	r.Findings = f
	r.finish()
}

// MaxShiftPoints is the largest move, in percentage points, of any host,
// locality, priority load or aggregate child load (--fail-on-shift).
func (r *Report) MaxShiftPoints() float64 {
	m := 0.0
	pp := func(c *Change[float64]) float64 {
		return 100 * math.Abs(shareOr0(c.New)-shareOr0(c.Old))
	}
	ip := func(c *Change[int]) float64 {
		var a, b int
		if c.Old != nil {
			a = *c.Old
		}
		if c.New != nil {
			b = *c.New
		}
		return math.Abs(float64(b - a))
	}
	for _, c := range r.Clusters {
		m = max(m, 100*c.MaxShift)
		for _, l := range c.Localities {
			m = max(m, pp(l.Share))
		}
		for _, p := range c.Priorities {
			// A priority's whole load: healthy to degraded within one
			// priority is a host shift, not a priority shift.
			m = max(m, ip(sum(p.HealthyLoad, p.DegradedLoad)))
		}
		if c.Aggregate != nil {
			for _, l := range c.Aggregate.ClusterLoad {
				m = max(m, ip(l.Load))
			}
		}
	}
	return m
}

// sum is a priority's whole load on each side (nil where it is absent).
func sum(a, b *Change[int]) *Change[int] {
	add := func(x, y *int) *int {
		if x == nil && y == nil {
			return nil
		}
		v := 0
		if x != nil {
			v += *x
		}
		if y != nil {
			v += *y
		}
		return &v
	}
	return &Change[int]{add(a.Old, b.Old), add(a.New, b.New)}
}

// sortClusters puts removed and added clusters first, then the biggest
// shifts, then names.
func sortClusters(cs []Cluster) {
	rank := map[string]int{"removed": 0, "added": 1, "modified": 2}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if rank[a.Change] != rank[b.Change] {
			return rank[a.Change] < rank[b.Change]
		}
		if a.MaxShift != b.MaxShift {
			return a.MaxShift > b.MaxShift
		}
		return a.Name < b.Name
	})
}

// renames pairs a removed cluster with an added one that has the same
// endpoint addresses (at least one): it looks renamed.
func renames(cs []Cluster, old, new *config.Config) {
	addrs := func(c *config.Config, name string) string {
		cl := c.Cluster(name)
		if cl == nil {
			return ""
		}
		var a []string
		for _, h := range model.Get(c, cl).Hosts {
			a = append(a, h.Address)
		}
		slices.Sort(a)
		return strings.Join(a, ",")
	}
	removed := map[string]int{}
	for i, c := range cs {
		if c.Change == "removed" {
			if k := addrs(old, c.Name); k != "" {
				removed[k] = i
			}
		}
	}
	for i, c := range cs {
		if c.Change != "added" {
			continue
		}
		k := addrs(new, c.Name)
		if j, ok := removed[k]; ok {
			cs[i].RenamedFrom, cs[j].RenamedTo = cs[j].Name, c.Name
			delete(removed, k)
		}
	}
}

// subsetChange compares the subset load balancer's fallback policy,
// selectors and default subset (model.Subset: legacy or typed).
func subsetChange(old, new *config.Config, p Pair) *Subset {
	view := func(c *config.Config, cl *config.Cluster) (fb string, sel []string, def string) {
		s, _ := model.Subset(c, cl)
		if s == nil || !s.Config.Enabled() {
			return "", []string{}, ""
		}
		fb = s.Config.FallbackPolicy.String()
		for _, x := range s.Config.Selectors {
			v := "[" + strings.Join(x.Keys, ",") + "]"
			if x.FallbackPolicy != 0 {
				v += " " + x.FallbackPolicy.String()
			}
			if len(x.FallbackKeysSubset) > 0 {
				v += " [" + strings.Join(x.FallbackKeysSubset, ",") + "]"
			}
			if x.SingleHostPerSubset {
				v += " single_host_per_subset"
			}
			sel = append(sel, v)
		}
		if len(s.Config.DefaultSubset) > 0 {
			b, _ := json.Marshal(s.Config.DefaultSubset) // map keys sorted
			def = string(b)
		}
		return fb, sel, def
	}
	fo, so, do := view(old, p.Old)
	fn, sn, dn := view(new, p.New)
	out := &Subset{FallbackPolicy: changed(fo, fn), DefaultSubset: changed(do, dn)}
	if !slices.Equal(so, sn) {
		out.Selectors = both(so, sn)
	}
	if out.FallbackPolicy == nil && out.Selectors == nil && out.DefaultSubset == nil {
		return nil
	}
	return out
}
